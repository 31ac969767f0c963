import { join } from 'node:path';
import { openPrismaClient, type ServiceDatabase } from '@igw/persistence';
import { Prisma, PrismaClient } from './generated/client';

/** The PostgreSQL schema the evaluator uses unless the app opens its database under another name. */
export const EVALUATOR_SCHEMA = 'intent_evaluator';
/**
 * Hand-written migrations (`<timestamp>_<name>/migration.sql`); apply with
 * `migrate(db, EVALUATOR_MIGRATIONS)`. This file is `src/adapters/prisma/`, the migrations are
 * `libs/intent-evaluator/prisma/migrations`.
 */
export const EVALUATOR_MIGRATIONS = join(__dirname, '../../../prisma/migrations');

export const EVALUATOR_PRISMA = Symbol('EVALUATOR_PRISMA');
/** The evaluator's ServiceDatabase (its `schema` names the tables): the hot write path skips Prisma. */
export const EVALUATOR_DB = Symbol('EVALUATOR_DB');
export type EvaluatorPrisma = PrismaClient;
export type EvaluatorTx = Prisma.TransactionClient;

export const createEvaluatorPrisma = (db: ServiceDatabase): Promise<EvaluatorPrisma> => openPrismaClient(db, PrismaClient);
