import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeEmbeddedDatabase, openEmbeddedDatabase, type ServiceDatabase } from './database';
import { embeddedVacuumTask, vacuumChurnedTables } from './embedded-vacuum';
import { StatCountsTable } from './stat-counts';

/**
 * The embedded store (PGlite) has no autovacuum: the overview's counts, rewritten on every commit,
 * grow without end unless vacuumed, and stop growing once they are.
 */
describe('embedded store vacuum (PGlite)', () => {
  let db: ServiceDatabase;
  const schemas = ['it_vacuum_a', 'it_vacuum_b'];
  let count: string;

  beforeAll(async () => {
    db = openEmbeddedDatabase(mkdtempSync(join(tmpdir(), 'igw-vacuum-')), schemas[0] as string);
    for (const s of schemas) {
      await db.query(`CREATE SCHEMA "${s}"`);
      await db.query(`CREATE TABLE "${s}"."stat_counts" ("org_id" TEXT NOT NULL, "granularity" SMALLINT NOT NULL, "bucket" TIMESTAMPTZ(3) NOT NULL,
        "dimension" TEXT NOT NULL, "key" TEXT NOT NULL, "n" BIGINT NOT NULL, PRIMARY KEY ("org_id", "granularity", "dimension", "bucket", "key") INCLUDE ("n"))`);
    }
    // Not churned: left alone.
    await db.query(`CREATE TABLE "${schemas[0]}"."decisions" ("id" TEXT PRIMARY KEY)`);
    const table = new StatCountsTable(db);
    count = `WITH fresh AS (SELECT 'org_1'::text AS org_id, 'allow'::text AS kind, $1::timestamptz AS created_at),
      counted AS (${table.upsertSql({ from: 'fresh c', orgId: 'c.org_id', at: 'c.created_at' }, [{ name: 'kind', key: 'c.kind' }])}) SELECT 1`;
  });

  afterAll(async () => {
    await closeEmbeddedDatabase();
  });

  /** `commits` recording commits of one call each, a second apart: the same few rows updated every time. */
  const record = async (commits: number, from: number) => {
    for (let i = 0; i < commits; i++) await db.commit(count, [new Date(Date.UTC(2026, 10, 28, 5) + (from + i) * 1000).toISOString()]);
  };
  const heapBytes = async () => Number((await db.query<{ n: string }>(`SELECT pg_relation_size('"${schemas[0]}"."stat_counts"') AS n`))[0]?.n);

  it('reclaims the dead rows of the tables rewritten on every commit, so they stop growing', async () => {
    await record(1500, 0);
    const unvacuumed = await heapBytes();
    await record(1500, 1500);
    // Without a vacuum every commit adds its dead rows.
    expect(await heapBytes()).toBeGreaterThan(unvacuumed * 1.5);
    expect(await vacuumChurnedTables(db, schemas)).toBe(2);
    const vacuumed = await heapBytes();
    await record(1500, 3000);
    // The next commits reuse the reclaimed space.
    expect(await heapBytes()).toBeLessThanOrEqual(vacuumed);
    const [stats] = await db.query<{ vacuumed: Date | null }>(
      `SELECT last_vacuum AS vacuumed FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'decisions'`,
      [schemas[0]],
    );
    expect(stats?.vacuumed).toBeNull();
  });

  it('runs as a task on the embedded store only', async () => {
    const log = { warn: jest.fn(), log: jest.fn() };
    const task = embeddedVacuumTask(db, schemas, log, 60_000);
    expect(task).toBeDefined();
    await task?.runOnce();
    expect(log.warn).not.toHaveBeenCalled();
    expect(embeddedVacuumTask({ ...db, kind: 'postgres' } as ServiceDatabase, schemas, log)).toBeUndefined();
  });
});
