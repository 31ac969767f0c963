import { defined } from '@igw/kernel';
import { openPrismaClient, type ServiceDatabase } from '@igw/persistence';
import { Prisma, PrismaClient } from './generated/client';

export const REGISTRY_PRISMA = Symbol('REGISTRY_PRISMA');
/** The PostgreSQL schema the registry's tables are in (raw SQL and the outbox need its name). */
export const REGISTRY_SCHEMA_NAME = Symbol('REGISTRY_SCHEMA_NAME');
export type RegistryPrisma = PrismaClient;
export type RegistryTx = Prisma.TransactionClient;

export const createRegistryPrisma = (db: ServiceDatabase): Promise<RegistryPrisma> => openPrismaClient(db, PrismaClient);

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

/**
 * Bumps one of the org's change counters inside the caller's transaction and returns the new
 * value. The row stays locked until commit, so counters follow commit order per org.
 */
export async function bumpOrgVersion(tx: RegistryTx, schema: string, orgId: string, counter: 'intentions_version' | 'cards_version'): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ v: number | bigint }[]>(
    `INSERT INTO "${schema}"."org_versions" ("org_id", "${counter}", "updated_at") VALUES ($1, 1, now())
     ON CONFLICT ("org_id") DO UPDATE SET "${counter}" = "org_versions"."${counter}" + 1, "updated_at" = now()
     RETURNING "${counter}" AS v`,
    orgId,
  );
  return Number(defined(rows[0], 'bumped org counter').v);
}
