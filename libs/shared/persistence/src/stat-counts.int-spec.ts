import { readCounts, STATS_WINDOWS, statsBuckets, type StatsWindow } from '@igw/kernel';
import { openPostgresDatabase, type ServiceDatabase } from './database';
import { StatCountsTable } from './stat-counts';
import { TEST_DATABASE_URL, dropTestSchema, testSchemaName, uniqueOrgId } from './testing';

// The services' migrations (e.g. intent-evaluator's 20261230000000_stat_counts,
// 20270101000000_stat_counts_by_dimension and 20270102000000_stat_hours_by_day), as this spec's tables.
const DDL = (schema: string) => `
  CREATE SCHEMA "${schema}";
  CREATE TABLE "${schema}"."stat_counts" (
    "org_id" TEXT NOT NULL, "granularity" SMALLINT NOT NULL, "bucket" TIMESTAMPTZ(3) NOT NULL,
    "dimension" TEXT NOT NULL, "key" TEXT NOT NULL, "n" BIGINT NOT NULL,
    PRIMARY KEY ("org_id", "granularity", "dimension", "bucket", "key") INCLUDE ("n"));
  CREATE INDEX ON "${schema}"."stat_counts" ("granularity", "bucket");
  CREATE TABLE "${schema}"."stat_hours_by_day" (
    "org_id" TEXT NOT NULL, "dimension" TEXT NOT NULL, "day" TIMESTAMPTZ(3) NOT NULL, "key" TEXT NOT NULL, "hours" BIGINT[] NOT NULL,
    PRIMARY KEY ("org_id", "dimension", "day", "key") INCLUDE ("hours"));
  CREATE INDEX ON "${schema}"."stat_hours_by_day" ("day");
  CREATE TABLE "${schema}"."stat_rollup_mark" ("id" SMALLINT PRIMARY KEY CHECK ("id" = 1), "hours_to" TIMESTAMPTZ(3));
  INSERT INTO "${schema}"."stat_rollup_mark" VALUES (1, NULL);
  CREATE TABLE "${schema}"."calls" ("org_id" TEXT NOT NULL, "outcome" TEXT NOT NULL, "tool" TEXT, "created_at" TIMESTAMPTZ(3) NOT NULL);`;

const DIMENSIONS = [
  { name: 'outcome', key: 'c."outcome"' },
  { name: 'refused_tool', key: `CASE WHEN c."outcome" = 'denied' THEN c."tool" END` },
];

const NOW = new Date('2026-03-08T10:00:30.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

/** A schema with the tables, and a statement recording calls as a service does: the rows and their counts in one statement. */
async function openCountedStore(schema: string): Promise<{ db: ServiceDatabase; table: StatCountsTable; insertAndCount: string }> {
  const db = openPostgresDatabase(TEST_DATABASE_URL, schema, 4);
  for (const statement of DDL(schema)
    .split(';')
    .filter((s) => s.trim()))
    await db.query(statement);
  const table = new StatCountsTable(db);
  const insertAndCount = `WITH fresh AS (
      INSERT INTO "${schema}"."calls" SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(org_id text, outcome text, tool text, created_at timestamptz)
      RETURNING *),
    counted AS (${table.upsertSql({ from: 'fresh c', orgId: 'c."org_id"', at: 'c."created_at"' }, DIMENSIONS)})
    SELECT 1`;
  return { db, table, insertAndCount };
}

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
    ({ db, table, insertAndCount } = await openCountedStore(schema));
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
    const readWeek = () => readCounts(table, org, '7d', NOW, { chart: 'outcome', tops: ['refused_tool'] });
    const unrolled = await readWeek();
    lines.push(`  7d from hourly rows only: ${await measure(readWeek)} (300 reads)`);
    // The week's completed hours rolled up into days (the service's upkeep does it every few minutes).
    const rollUpStarted = Date.now();
    const rolled = await table.rollUpHours(NOW);
    lines.push(`  roll-up of the week's hours: ${rolled} day rows in ${Date.now() - rollUpStarted} ms`);
    // What the upkeep does every few minutes from then on: the last two hours of every key again.
    const nextStarted = Date.now();
    const next = await table.rollUpHours(new Date(NOW.getTime() + 5 * 60_000));
    lines.push(`  the next roll-up: ${next} day rows changed in ${Date.now() - nextStarted} ms`);
    await db.query(`VACUUM ANALYZE "${schema}"."stat_hours_by_day"`);
    expect(await readWeek()).toEqual(unrolled);
    for (const window of STATS_WINDOWS as readonly StatsWindow[]) {
      const read = await readCounts(table, org, window, NOW, { chart: 'outcome', tops: ['refused_tool'] });
      expect(read.chart.total).toBeGreaterThan(0);
      const timing = await measure(() => readCounts(table, org, window, NOW, { chart: 'outcome', tops: ['refused_tool'] }));
      lines.push(`  ${window}: ${read.chart.total} calls in the window, ${timing} (300 reads)`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });
});

describe('StatCountsTable roll-up of hours into days (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let table: StatCountsTable;
  let insertAndCount: string;
  const schema = testSchemaName('stat_rollup');
  const org = uniqueOrgId('rollup');
  const calls: { at: Date; outcome: string; tool: string }[] = [];

  const record = async (batch: { at: Date; outcome: string; tool: string }[]) => {
    calls.push(...batch);
    await db.query(insertAndCount, [JSON.stringify(batch.map((c) => ({ org_id: org, outcome: c.outcome, tool: c.tool, created_at: c.at.toISOString() })))]);
  };

  /** The week at `now` counted call by call: per outcome, its count in each of the window's hours. */
  const bruteForce = (now: Date) => {
    const buckets = statsBuckets('7d', now);
    const series: Record<string, number[]> = {};
    for (const c of calls) {
      const i = buckets.findIndex((b) => c.at >= b && c.at.getTime() < b.getTime() + 3_600_000);
      if (i < 0 || c.at > now) continue;
      (series[c.outcome] ??= buckets.map(() => 0))[i] += 1;
    }
    return series;
  };
  const week = (now: Date) => readCounts(table, org, '7d', now, { chart: 'outcome', tops: ['refused_tool'] });

  beforeAll(async () => {
    ({ db, table, insertAndCount } = await openCountedStore(schema));
  });

  afterAll(async () => {
    await dropTestSchema(db);
  });

  it('charts the week from rolled-up days exactly as from hours, at every clock reading', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const outcomes = ['allowed', 'denied', 'pending_approval'];
    await record(
      Array.from({ length: 600 }, (_, i) => ({
        outcome: outcomes[i % 3] as string,
        tool: `t${i % 4}`,
        at: new Date(NOW.getTime() - Math.floor(random() * 8 * 24 * 60 * 60_000)),
      })),
    );
    // Rolled up, read and checked at readings 37 minutes apart over a day and a half, with new
    // calls committed between them (some in hours already rolled up, within the redo window).
    for (let k = 0; k < 56; k++) {
      const now = new Date(NOW.getTime() + k * 37 * 60_000);
      const changed = await table.rollUpHours(now);
      if (k === 0) expect(changed).toBeGreaterThan(0);
      const read = await week(now);
      const label = `7d at ${now.toISOString()}`;
      expect([label, read.chart.series]).toEqual([label, bruteForce(now)]);
      // A second roll-up at the same reading changes nothing.
      expect([label, await table.rollUpHours(now)]).toEqual([label, 0]);
      await record([
        { outcome: outcomes[k % 3] as string, tool: 't9', at: new Date(now.getTime() - 1_000) },
        // Committed 50 minutes after its hour ended: already rolled up; recomputed by the next roll-up.
        { outcome: 'denied', tool: 't9', at: new Date(now.getTime() - 5 * 60_000 - (k % 2 ? 50 * 60_000 : 0)) },
      ]);
    }
  });

  it('never takes the mark back: a replica whose clock is behind leaves the chart as it is', async () => {
    const now = new Date(NOW.getTime() + 40 * 3_600_000);
    await table.rollUpHours(now);
    const before = await week(now);
    await table.rollUpHours(new Date(now.getTime() - 6 * 3_600_000));
    expect(await week(now)).toEqual(before);
    expect(before.chart.series).toEqual(bruteForce(now));
  });

  it('rolls up concurrently from several replicas to one result', async () => {
    const now = new Date(NOW.getTime() + 42 * 3_600_000);
    await record([{ outcome: 'allowed', tool: 't1', at: new Date(now.getTime() - 2 * 3_600_000) }]);
    const replicas = [new StatCountsTable(db), new StatCountsTable(db), new StatCountsTable(db)];
    const changed = await Promise.all(replicas.map((r) => r.rollUpHours(now)));
    // The first to take the mark writes the changed day rows; the others find nothing to change.
    expect(changed.filter((n) => n > 0)).toHaveLength(1);
    expect((await week(now)).chart.series).toEqual(bruteForce(now));
  });

  it('prunes the rolled-up days with the days', async () => {
    const days = () => db.query<{ day: Date }>(`SELECT DISTINCT "day" FROM "${schema}"."stat_hours_by_day" WHERE org_id = $1 ORDER BY 1`, [org]);
    const oldest = (await days())[0]?.day as Date;
    expect(oldest).toBeDefined();
    // Days are kept 8 days after they start: the oldest goes at its start plus 8 days and a second.
    await table.prune(new Date(new Date(oldest).getTime() + 8 * 24 * 3_600_000 + 1_000));
    const left = await days();
    expect(left.map((r) => new Date(r.day).getTime())).not.toContain(new Date(oldest).getTime());
    expect(left.length).toBeGreaterThan(0);
  });
});

describe('StatCountsTable roll-up with a replica clock ahead of the database (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let table: StatCountsTable;
  let insertAndCount: string;
  const schema = testSchemaName('stat_rollup_ahead');

  beforeAll(async () => {
    ({ db, table, insertAndCount } = await openCountedStore(schema));
  });

  afterAll(async () => {
    await dropTestSchema(db);
  });

  it('never moves the mark past the database clock, so later calls are charted', async () => {
    const org = uniqueOrgId('ahead');
    // A replica two hours ahead rolls up first.
    await table.rollUpHours(new Date(Date.now() + 2 * 3_600_000));
    const [mark] = await db.query<{ behind: boolean }>(
      `SELECT "hours_to" <= date_bin(INTERVAL '1 hour', now() - INTERVAL '5 minutes', TIMESTAMPTZ '2000-01-01 00:00:00+00') AS behind
       FROM "${schema}"."stat_rollup_mark"`,
    );
    expect(mark?.behind).toBe(true);
    // A call now, rolled up by a replica with the right clock: in the week's chart.
    const at = new Date();
    await db.query(insertAndCount, [JSON.stringify([{ org_id: org, outcome: 'allowed', tool: null, created_at: at.toISOString() }])]);
    await table.rollUpHours(new Date());
    const week = await readCounts(table, org, '7d', new Date(at.getTime() + 1_000), { chart: 'outcome', tops: ['refused_tool'] });
    expect(week.chart.totals).toEqual({ allowed: 1 });
  });
});
