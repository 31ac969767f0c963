import { join } from 'node:path';
import { openPrismaClient, type ServiceDatabase } from '@igw/persistence';
import { Prisma, PrismaClient } from './generated/client';

/** The PostgreSQL schema the mandate issuer uses unless the app opens its database under another name. */
export const MANDATE_ISSUER_SCHEMA = 'mandate_issuer';
/**
 * Hand-written migrations (`<timestamp>_<name>/migration.sql`); apply with
 * `migrate(db, MANDATE_ISSUER_MIGRATIONS)`. This file is `src/adapters/prisma/`, the migrations are
 * `libs/mandate-issuer/prisma/migrations`.
 */
export const MANDATE_ISSUER_MIGRATIONS = join(__dirname, '../../../prisma/migrations');

export const MANDATE_ISSUER_PRISMA = Symbol('MANDATE_ISSUER_PRISMA');
/**
 * The mandate issuer's ServiceDatabase (its `schema` names the tables): raw SQL for the outbox,
 * row locks and the statements on the dispense path that skip Prisma.
 */
export const MANDATE_ISSUER_DB = Symbol('MANDATE_ISSUER_DB');
export type MandateIssuerPrisma = PrismaClient;
export type MandateIssuerTx = Prisma.TransactionClient;

export const createMandateIssuerPrisma = (db: ServiceDatabase): Promise<MandateIssuerPrisma> => openPrismaClient(db, PrismaClient);
