import { readCounts, STATS_WINDOWS, statsBuckets, type StatsWindow } from '@igw/kernel';
import { openPostgresDatabase, type ServiceDatabase } from './database';
import { StatCountsTable } from './stat-counts';
import { TEST_DATABASE_URL, dropTestSchema, testSchemaName, uniqueOrgId } from './testing';

// The services' migrations (e.g. intent-evaluator's 20261230000000_stat_counts and
// 20270101000000_stat_counts_by_dimension), as this spec's table.
const DDL = (schema: string) => `
  CREATE SCHEMA "${schema}";
  CREATE TABLE "${schema}"."stat_counts" (
    "org_id" TEXT NOT NULL, "granularity" SMALLINT NOT NULL, "bucket" TIMESTAMPTZ(3) NOT NULL,
    "dimension" TEXT NOT NULL, "key" TEXT NOT NULL, "n" BIGINT NOT NULL,
    PRIMARY KEY ("org_id", "granularity", "dimension", "bucket", "key") INCLUDE ("n"));
  CREATE INDEX ON "${schema}"."stat_counts" ("granularity", "bucket");
  CREATE TABLE "${schema}"."calls" ("org_id" TEXT NOT NULL, "outcome" TEXT NOT NULL, "tool" TEXT, "created_at" TIMESTAMPTZ(3) NOT NULL);`;

const DIMENSIONS = [
  { name: 'outcome', key: 'c."outcome"' },
  { name: 'refused_tool', key: `CASE WHEN c."outcome" = 'denied' THEN c."tool" END` },
];

const NOW = new Date('2026-03-08T10:00:30.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

describe('StatCountsTable (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let table: StatCountsTable;
  let insertAndCount: string;
  const schema = testSchemaName('stat_counts');

  /** Records calls as a service does: the rows and their counts in one statement. */
  const record = (calls: { orgId: string; outcome: string; tool?: string; at: Date }[]) =>
    db.query(insertAndCount, [
      JSON.stringify(calls.map((c) => ({ org_id: c.orgId, outcome: c.outcome, tool: c.tool ?? null, created_at: c.at.toISOString() }))),
    ]);

  beforeAll(async () => {
    db = openPostgresDatabase(TEST_DATABASE_URL, schema, 4);
    for (const statement of DDL(schema)
      .split(';')
      .filter((s) => s.trim()))
      await db.query(statement);
    table = new StatCountsTable(db);
    insertAndCount = `WITH fresh AS (
        INSERT INTO "${schema}"."calls" SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(org_id text, outcome text, tool text, created_at timestamptz)
        RETURNING *),
      counted AS (${table.upsertSql({ from: 'fresh c', orgId: 'c."org_id"', at: 'c."created_at"' }, DIMENSIONS)})
      SELECT 1`;
  });

  afterAll(async () => {
    await dropTestSchema(db);
  });

  it('counts each call once per granularity in the statement that records it, adding up across commits', async () => {
    const org = uniqueOrgId('count');
    await record([
      { orgId: org, outcome: 'allowed', at: ago(0) },
      { orgId: org, outcome: 'allowed', at: ago(0) },
      { orgId: org, outcome: 'denied', tool: 'crm.delete', at: ago(0) },
      { orgId: org, outcome: 'denied', tool: 'crm.delete', at: ago(3) },
    ]);
    await record([{ orgId: org, outcome: 'allowed', at: ago(0) }]);
    const rows = await db.query<{ granularity: number; dimension: string; key: string; n: string }>(
      `SELECT granularity, dimension, key, sum(n) AS n FROM "${schema}"."stat_counts" WHERE org_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [org],
    );
    const expected = (g: number) => [
      { granularity: g, dimension: 'outcome', key: 'allowed', n: '3' },
      { granularity: g, dimension: 'outcome', key: 'denied', n: '2' },
      { granularity: g, dimension: 'refused_tool', key: 'crm.delete', n: '2' },
    ];
    expect(rows).toEqual([...expected(1), ...expected(15), ...expected(60), ...expected(1440)]);
    // One row per (bucket, dimension, key): the batch was grouped before its upsert (2 minutes × outcome, outcome, tool).
    const minuteRows = await db.query(`SELECT 1 FROM "${schema}"."stat_counts" WHERE org_id = $1 AND granularity = 1`, [org]);
    expect(minuteRows).toHaveLength(5);
  });

  it('reads a window as buckets and totals of the caller’s org only', async () => {
    const org = uniqueOrgId('read');
    const other = uniqueOrgId('other');
    await record([
      { orgId: org, outcome: 'allowed', at: ago(59) },
      { orgId: org, outcome: 'allowed', at: ago(0) },
      { orgId: org, outcome: 'denied', tool: 'b', at: ago(10) },
      { orgId: org, outcome: 'denied', tool: 'a', at: ago(11) },
      // Outside the hour: in the 24h window only.
      { orgId: org, outcome: 'allowed', at: ago(61) },
      { orgId: other, outcome: 'allowed', at: ago(0) },
    ]);
    const hour = await readCounts(table, org, '1h', NOW, { chart: 'outcome', tops: ['refused_tool'] });
    expect(hour.chart.totals).toEqual({ allowed: 2, denied: 2 });
    expect(hour.chart.series.allowed).toHaveLength(60);
    expect(hour.chart.series.allowed?.[0]).toBe(1);
    expect(hour.chart.series.allowed?.[59]).toBe(1);
    expect(hour.chart.series.denied?.[48]).toBe(1);
    expect(hour.tops.refused_tool).toEqual([
      { key: 'a', count: 1 },
      { key: 'b', count: 1 },
    ]);
    const day = await readCounts(table, org, '24h', NOW, { chart: 'outcome', tops: [] });
    expect(day.chart.totals).toEqual({ allowed: 3, denied: 2 });
    const nobody = await readCounts(table, uniqueOrgId('nobody'), '7d', NOW, { chart: 'outcome', tops: ['refused_tool'] });
    expect(nobody).toEqual({ chart: { total: 0, totals: {}, series: {} }, tops: { refused_tool: [] } });
  });

  it('totals a week from whole days, less the hours of its first day before it starts, exactly', async () => {
    const org = uniqueOrgId('week');
    const at = (iso: string) => ({ orgId: org, outcome: 'denied', tool: 'crm.delete', at: new Date(iso) });
    // The week at NOW starts at 2026-03-01T11:00Z: its totals are the days from 2026-03-01 less
    // that day's first 11 hours (fewer than the 13 to 2026-03-02).
    await record([
      at('2026-03-01T10:59:59Z'), // before the window, in the window's first day: not counted
      at('2026-03-01T11:00:00Z'),
      at('2026-03-01T23:59:59Z'),
      at('2026-03-02T00:00:00Z'),
      at('2026-03-05T12:00:00Z'),
      at('2026-03-08T10:00:10Z'),
    ]);
    const week = await readCounts(table, org, '7d', NOW, { chart: 'outcome', tops: ['refused_tool'] });
    expect(week.tops.refused_tool).toEqual([{ key: 'crm.delete', count: 5 }]);
    expect(week.chart.totals).toEqual({ denied: 5 });
    const day = await readCounts(table, org, '24h', NOW, { chart: 'outcome', tops: ['refused_tool'] });
    expect(day.tops.refused_tool).toEqual([{ key: 'crm.delete', count: 1 }]);
    // A key whose counts are all taken off is not listed with 0.
    const before = uniqueOrgId('before');
    await record([{ orgId: before, outcome: 'denied', tool: 'crm.export', at: new Date('2026-03-01T10:00:00Z') }]);
    expect((await readCounts(table, before, '7d', NOW, { chart: 'outcome', tops: ['refused_tool'] })).tops.refused_tool).toEqual([]);
  });

  it('totals every window exactly at any clock reading, adding or taking off edge buckets', async () => {
    const org = uniqueOrgId('exact');
    // Calls over the 8 days before NOW, denser in its last two hours; a fixed pseudo-random sequence.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const tools = ['a.read', 'b.write', 'c.delete'];
    const calls = Array.from({ length: 400 }, (_, i) => ({
      orgId: org,
      outcome: 'denied',
      tool: tools[i % 3] as string,
      at: new Date(NOW.getTime() - Math.floor(random() * (i % 2 ? 8 * 24 * 60 : 120) * 60_000)),
    }));
    await record(calls);
    // Clock readings from NOW on, 7 and 47 minutes apart: every edge case of 1h, 24h and 7d.
    const nows = [...Array.from({ length: 12 }, (_, k) => k * 7), ...Array.from({ length: 31 }, (_, k) => k * 47)].map(
      (minutes) => new Date(NOW.getTime() + minutes * 60_000 + 11_000),
    );
    for (const now of nows) {
      for (const window of STATS_WINDOWS as readonly StatsWindow[]) {
        const since = statsBuckets(window, now)[0] as Date;
        const expected = new Map<string, number>();
        for (const c of calls) if (c.at >= since) expected.set(c.tool, (expected.get(c.tool) ?? 0) + 1);
        const read = await readCounts(table, org, window, now, { chart: 'outcome', tops: ['refused_tool'] });
        const label = `${window} at ${now.toISOString()}`;
        expect([label, Object.fromEntries(read.tops.refused_tool.map((t) => [t.key, t.count]))]).toEqual([label, Object.fromEntries(expected)]);
        expect([label, read.chart.total]).toEqual([label, [...expected.values()].reduce((a, b) => a + b, 0)]);
      }
    }
  });

  it('prunes each granularity past its window, and only that', async () => {
    const org = uniqueOrgId('prune');
    await record([
      { orgId: org, outcome: 'allowed', at: ago(3 * 60) }, // 1-minute bucket gone, 15, 60 and 1440 stay
      { orgId: org, outcome: 'allowed', at: ago(26 * 60) }, // 1 and 15 gone, 60 and 1440 stay
      // Hours are kept 7 days, 12 hours (the most a week's totals take off) and one hour.
      { orgId: org, outcome: 'allowed', at: ago(7 * 24 * 60 + 90) }, // 1 and 15 gone, 60 and 1440 stay
      { orgId: org, outcome: 'allowed', at: ago(7 * 24 * 60 + 14 * 60) }, // its hour and its day gone
      { orgId: org, outcome: 'allowed', at: ago(9 * 24 * 60) }, // all gone
    ]);
    await table.prune(NOW);
    const left = await db.query<{ granularity: number; n: number }>(
      `SELECT granularity, count(*)::int AS n FROM "${schema}"."stat_counts" WHERE org_id = $1 GROUP BY 1 ORDER BY 1`,
      [org],
    );
    expect(left).toEqual([
      { granularity: 15, n: 1 },
      { granularity: 60, n: 3 },
      { granularity: 1440, n: 3 },
    ]);
  });

  // The overview's target (issue 28): ≤ 20 ms p99 with 1 million calls in the window. The calls
  // are counted through the real upsert, then each window is read as GET /v1/stats reads it.
  // Printed, not asserted: a timing assertion would fail on a busy machine without a regression.
  it('reads a window of 1 million counted calls in bounded time (prints p50/p99)', async () => {
    const org = uniqueOrgId('million');
    const CALLS = 1_000_000;
    const started = Date.now();
    // Spread over the 7 days, 5 outcomes, 40 refused tools; counted in 10 statements of 100k.
    for (let part = 0; part < 10; part++) {
      await db.query(
        `WITH fresh AS (
           SELECT $1::text AS org_id,
                  (ARRAY['allowed','allowed','allowed','denied','pending_approval'])[1 + i % 5] AS outcome,
                  'tool.' || (i % 40) AS tool,
                  $2::timestamptz - make_interval(secs => (i::float8 * 604740 / ${CALLS})) AS created_at
           FROM generate_series($3::int, $3::int + ${CALLS / 10} - 1) AS i),
         counted AS (${table.upsertSql({ from: 'fresh c', orgId: 'c."org_id"', at: 'c."created_at"' }, DIMENSIONS)})
         SELECT 1`,
        [org, NOW.toISOString(), part * (CALLS / 10)],
      );
    }
    // As a running service leaves it: buckets past their window pruned, other orgs beside this one
    // (20 with the same traffic), old pages vacuumed (autovacuum).
    await table.prune(NOW);
    await db.query(
      `INSERT INTO "${schema}"."stat_counts" SELECT $1 || '_' || o, granularity, bucket, dimension, key, n FROM "${schema}"."stat_counts", generate_series(1, 20) AS o WHERE org_id = $1`,
      [org],
    );
    await db.query(`VACUUM ANALYZE "${schema}"."stat_counts"`);
    const [stored] = await db.query<{ rows: number; calls: string }>(
      `SELECT count(*)::int AS rows, sum(n) FILTER (WHERE granularity = 60 AND dimension = 'outcome') AS calls FROM "${schema}"."stat_counts" WHERE org_id = $1`,
      [org],
    );
    expect(Number(stored?.calls)).toBe(CALLS);
    const lines = [`stat counts: 1,000,000 calls counted in ${Date.now() - started} ms as ${stored?.rows} rows`];
    /** p50 and p99 of 300 runs of `run`, in ms. */
    const measure = async (run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t0 = process.hrtime.bigint();
        await run();
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      times.sort((a, b) => a - b);
      const q = (p: number) => (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(2);
      return `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`;
    };
    // The floor on this machine at this moment: one round trip that reads nothing.
    lines.push(`  SELECT 1: ${await measure(() => db.query('SELECT 1'))}`);
    for (const window of STATS_WINDOWS as readonly StatsWindow[]) {
      const read = await readCounts(table, org, window, NOW, { chart: 'outcome', tops: ['refused_tool'] });
      expect(read.chart.total).toBeGreaterThan(0);
      const timing = await measure(() => readCounts(table, org, window, NOW, { chart: 'outcome', tops: ['refused_tool'] }));
      lines.push(`  ${window}: ${read.chart.total} calls in the window, ${timing} (300 reads)`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });
});
