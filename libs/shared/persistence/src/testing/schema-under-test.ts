import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '@igw/contracts';
import { openPostgresDatabase, type ServiceDatabase } from '../database';
import { migrate } from '../migrate';

/** The PostgreSQL the int-specs run on. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** A port nobody listens on: every query fails as the database being unavailable. */
export const DEAD_DATABASE_URL = 'postgresql://postgres@127.0.0.1:1/x';

/** A schema name of its own for one spec file, so files never see each other's rows. */
export const testSchemaName = (prefix: string): string => `it_${prefix}_${randomBytes(4).toString('hex')}`;

/** Opens `schema` on the test PostgreSQL and applies the service's migrations to it. */
export async function openMigratedSchema(schema: string, migrations: string, poolSize?: number): Promise<ServiceDatabase> {
  const db = openPostgresDatabase(TEST_DATABASE_URL, schema, poolSize);
  await migrate(db, migrations);
  return db;
}

/** Drops the spec's schema and closes its database (a no-op when opening it failed). */
export async function dropTestSchema(db: ServiceDatabase | undefined): Promise<void> {
  await db?.query(`DROP SCHEMA IF EXISTS "${db.schema}" CASCADE`);
  await db?.close();
}

/** The outbox rows keyed by `orgId` (the org, unless the writer chose another key), in commit order. */
export function readOutbox<D>(db: ServiceDatabase, orgId: string): Promise<{ id: string; topic: string; key: string; envelope: EventEnvelope<D> }[]> {
  return db.query(`SELECT id, topic, key, envelope FROM "${db.schema}"."outbox_events" WHERE key = $1 ORDER BY seq`, [orgId]);
}

/** Closes the extra databases (and their Prisma clients first) a spec opened, ignoring errors. */
export async function closeQuietly(opened: readonly { db: ServiceDatabase; prisma?: { $disconnect(): Promise<void> } }[]): Promise<void> {
  for (const o of opened) {
    await o.prisma?.$disconnect().catch(() => undefined);
    await o.db.close().catch(() => undefined);
  }
}

/** The storage specs' clock: 2026-03-01T10:00:00Z plus `ms`. */
export const TEST_T0 = Date.parse('2026-03-01T10:00:00.000Z');
export const atTestTime = (ms: number): Date => new Date(TEST_T0 + ms);

/** An org id no other spec, nor an earlier run on the same database, uses. */
export const uniqueOrgId = (name: string): string => `org_${name}_${randomHex()}`;

/** Twelve random hex digits: ids no other run on the same database uses. */
export const randomHex = (): string => randomBytes(6).toString('hex');

/** The outbox notifier a repository spec hands its repository: counts the relay's nudges. */
export interface CountingNotifier {
  nudges: number;
  nudge(): void;
}

/**
 * A Prisma repository spec's world: before the spec's tests its schema is migrated and `build`
 * makes the repository and use cases from the Prisma client and a counting notifier; after them
 * the client is closed and the schema dropped. The object is filled in when the first test runs.
 */
export function prismaSpecWorld<P extends { $disconnect(): Promise<void> }, W extends object>(
  schema: string,
  migrations: string,
  poolSize: number,
  openPrisma: (db: ServiceDatabase) => Promise<P>,
  build: (prisma: P, notifier: CountingNotifier) => W,
): { db: ServiceDatabase; prisma: P; notifier: CountingNotifier } & W {
  const notifier: CountingNotifier = { nudges: 0, nudge: () => void notifier.nudges++ };
  const world = { notifier } as { db: ServiceDatabase; prisma: P; notifier: CountingNotifier } & W;
  beforeAll(async () => {
    const db = await openMigratedSchema(schema, migrations, poolSize);
    const prisma = await openPrisma(db);
    Object.assign(world, { db, prisma }, build(prisma, notifier));
  });
  afterAll(async () => {
    await world.prisma?.$disconnect();
    await dropTestSchema(world.db);
  });
  return world;
}
