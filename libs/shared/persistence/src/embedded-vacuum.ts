import { PeriodicTask, type PeriodicTaskLog } from '@igw/kernel';
import type { ServiceDatabase, SqlRunner } from './database';
import { rethrowUnavailable } from './unavailable';

/**
 * PGlite runs PostgreSQL as a single session, without the autovacuum daemon and without the table
 * statistics autovacuum decides by. A table whose rows are updated or deleted on every commit then
 * never gets its dead rows' space back: `stat_counts` grew by about 220 bytes per commit, without
 * end, until a VACUUM (after which it stayed the same size). These are the tables rewritten on
 * every commit: the outbox (inserted, marked published, deleted) and the overview's counts, and
 * the counts' days, rewritten by every roll-up.
 * Insert-only tables (decisions, evaluations) leave no dead rows and are not vacuumed here.
 */
export const CHURNED_TABLES: readonly string[] = ['outbox_events', 'stat_counts', 'stat_hours_by_day'];

/** Time between vacuums of the embedded store: each one reclaims about a minute of dead rows. */
export const EMBEDDED_VACUUM_INTERVAL_MS = 60_000;

/**
 * VACUUMs the churned tables of `schemas` that exist, one table per statement so other callers of
 * the one PGlite session run between them; how many were vacuumed.
 */
export async function vacuumChurnedTables(db: SqlRunner, schemas: readonly string[]): Promise<number> {
  const tables = await db
    .query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
       WHERE schemaname = ANY($1::text[]) AND tablename = ANY($2::text[]) ORDER BY 1`,
      [schemas, CHURNED_TABLES],
    )
    .catch(rethrowUnavailable);
  for (const { name } of tables) await db.query(`VACUUM ${name}`).catch(rethrowUnavailable);
  return tables.length;
}

/**
 * The vacuum as a periodic task, for the embedded store only (PostgreSQL has its autovacuum): the
 * app starts it with its relays and stops it before closing the store.
 */
export function embeddedVacuumTask(
  db: ServiceDatabase,
  schemas: readonly string[],
  logger: PeriodicTaskLog,
  intervalMs = EMBEDDED_VACUUM_INTERVAL_MS,
): PeriodicTask | undefined {
  if (db.kind !== 'pglite') return undefined;
  return new PeriodicTask('embedded store vacuum', () => vacuumChurnedTables(db, schemas), { intervalMs }, logger);
}
