import { openPrismaClient, type ServiceDatabase } from '@igw/persistence';
import { Prisma, PrismaClient } from './generated/client';

export const APPROVALS_PRISMA = Symbol('APPROVALS_PRISMA');
/** The PostgreSQL schema the approvals tables are in (raw SQL and the outbox need its name). */
export const APPROVALS_SCHEMA_NAME = Symbol('APPROVALS_SCHEMA_NAME');
export type ApprovalsPrisma = PrismaClient;
export type ApprovalsTx = Prisma.TransactionClient;

export const createApprovalsPrisma = (db: ServiceDatabase): Promise<ApprovalsPrisma> => openPrismaClient(db, PrismaClient);
