// The stats-1m scenario (DESIGN 6.14, issue 28): how fast `GET /v1/stats?window=7d` answers with
// 1 million evaluations and 1 million mandate-path decisions counted in the window. A "custom"
// scenario: run.mjs calls run(ctx); the loader calls op.
//
// run(ctx), both modes (the counts are generated straight into the store: recording a million calls
// through the API would take the bench half an hour; an embedded app is stopped while its PGlite
// store is seeded, and started again):
//   1. in a fresh org, generates the per-bucket counts a service keeps (`stat_counts`, every
//      granularity, every dimension the overview reads) for 1,000,000 calls spread over the week,
//      in the evaluator's and the decision proxy's schemas, and the same rows for 20 other orgs;
//      then rolls the completed hours up into days with the services' own code (StatCountsTable,
//      from dist), as their upkeep does every few minutes; VACUUM ANALYZE stands for the
//      autovacuum a running service gets;
//   2. reads the overview one request at a time (the console's load) for the measured window and
//      reports p50/p99 as the client saw them. Target: p99 ≤ 20 ms.
//
// Importing this module starts nothing (scenarios.mjs loads it into the loader too).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const CALLS = 1_000_000;
const OTHER_ORGS = 20;
const WEEK_MINUTES = 7 * 24 * 60;

// What each service counts: its dimensions, with each key's share of the calls.
const spread = (prefix, count, share) => Array.from({ length: count }, (_, i) => [`${prefix}${i}`, share / count]);
const SERVICES = [
  {
    schema: 'intent_evaluator',
    dimensions: {
      outcome: [
        ['allowed', 0.6],
        ['denied', 0.2],
        ['pending_approval', 0.1],
        ['approved', 0.05],
        ['shadow_denied', 0.05],
      ],
      refused_tool: spread('bench_tool.refused_', 40, 0.2),
      intention: spread('bench_intent.', 20, 0.6),
    },
  },
  {
    schema: 'decision_proxy',
    dimensions: {
      kind: [
        ['allow', 0.7],
        ['deny_scope', 0.1],
        ['deny_rule', 0.1],
        ['require_approval', 0.1],
      ],
      refused_tool: spread('bench_op.refused_', 40, 0.2),
      card: spread('card_bench_', 10, 1),
    },
  },
];

/** The granularities a service writes and how long it keeps each, from the built kernel (run `npm run build` first). */
const KERNEL = fileURLToPath(new URL('../../dist/libs/shared/kernel/src/stat-counts.js', import.meta.url));
const granularities = () => createRequire(import.meta.url)(KERNEL).STAT_COUNT_GRANULARITIES;
/** The services' count store, from the built persistence lib: its roll-up is the one they run. */
const STORE = fileURLToPath(new URL('../../dist/libs/shared/persistence/src/stat-counts.js', import.meta.url));

/** `client` (pg or PGlite) as the store's database port needs it for a roll-up: queries and a transaction. */
function storeDatabase(client, schema) {
  const db = {
    schema,
    query: async (sql, params) => (await client.query(sql, params)).rows,
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        const out = await fn(db);
        await client.query('COMMIT');
        return out;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
  };
  return db;
}

/** Generates one org's counts in `schema`: every bucket each granularity keeps, every key its share. */
async function seed(client, schema, orgId, dimensions) {
  const keys = Object.entries(dimensions).flatMap(([dimension, list]) => list.map(([key, share]) => ({ dimension, key, share })));
  for (const g of granularities()) {
    await client.query(
      `INSERT INTO "${schema}"."stat_counts" ("org_id", "granularity", "bucket", "dimension", "key", "n")
       SELECT $1, $2::smallint, date_bin(make_interval(mins => $2), now(), TIMESTAMPTZ '2000-01-01 00:00:00+00') - make_interval(mins => $2 * i),
              k.dimension, k.key, greatest(1, round($3::float8 * $2 * k.share))::bigint
       FROM generate_series(0, $4::int / $2) AS i,
            jsonb_to_recordset($5::jsonb) AS k(dimension text, key text, share float8)`,
      [orgId, g.bucketMinutes, CALLS / WEEK_MINUTES, g.keepMinutes, JSON.stringify(keys)],
    );
  }
  // Others beside it, as a shared database holds them.
  await client.query(
    `INSERT INTO "${schema}"."stat_counts" SELECT $1 || '_' || o, "granularity", "bucket", "dimension", "key", "n"
     FROM "${schema}"."stat_counts", generate_series(1, ${OTHER_ORGS}) AS o WHERE "org_id" = $1`,
    [orgId],
  );
  const { StatCountsTable } = createRequire(import.meta.url)(STORE);
  // The week was generated behind the service's roll-up mark: rolled up from the start, as a
  // store counted over that week would have been, hour after hour (stat-counts.int-spec shows the
  // two read the same).
  await client.query(`UPDATE "${schema}"."stat_rollup_mark" SET "hours_to" = NULL`);
  await new StatCountsTable(storeDatabase(client, schema)).rollUpHours(new Date());
  await client.query(`VACUUM ANALYZE "${schema}"."stat_counts"`);
  await client.query(`VACUUM ANALYZE "${schema}"."stat_hours_by_day"`);
}

/** Generates a week of counts for 1,000,000 calls of `orgId` in each counting service's schema, through `db.query(sql, params)`. */
export async function seedCounts(db, orgId) {
  for (const s of SERVICES) await seed(db, s.schema, orgId, s.dimensions);
}

/** `fn(db)` on PostgreSQL at `url` (distributed) or on the PGlite store in `dir` (embedded, the app stopped). */
async function withStore(target, fn) {
  const require = createRequire(import.meta.url);
  if (target.url) {
    const client = new (require('pg').Client)({ connectionString: target.url, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(target.dir);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function run(ctx) {
  if (!ctx.databaseUrl && !ctx.offline) throw new Error('stats-1m: the system gives no access to its store');
  const org = await ctx.createOrg(`bench-stats-${Math.random().toString(36).slice(2, 8)}`);
  const seedStarted = performance.now();
  const seedInto = (target) => withStore(target, (db) => seedCounts(db, org.id));
  if (ctx.databaseUrl) await seedInto({ url: ctx.databaseUrl });
  // PGlite is inside the embedded process: seeded while it is stopped, as after a restart.
  else await ctx.offline((dir) => seedInto({ dir }));
  const seedS = (performance.now() - seedStarted) / 1000;
  const window = process.env.BENCH_STATS_WINDOW ?? '7d';
  const read = await org.api('GET', '/v1/stats?window=7d', undefined, 200);
  ctx.log(`stats-1m: counts of ${read.evaluations.total} evaluations and ${read.decisions.total} decisions generated in ${seedS.toFixed(1)} s`);
  if (read.evaluations.total < CALLS * 0.99 || read.decisions.total < CALLS * 0.99)
    throw new Error(`stats-1m: the 7d window holds ${read.evaluations.total} evaluations and ${read.decisions.total} decisions, expected ${CALLS} each`);
  const r = await ctx.runLoader({
    params: { window },
    headers: { authorization: `Bearer ${org.key}` },
    connections: 1,
    warmupS: ctx.warmupS,
    durationS: ctx.durationS,
    cpuPids: ctx.appPids,
  });
  return {
    scenario: 'stats-1m',
    mode: ctx.mode,
    window,
    evaluations: read.evaluations.total,
    decisions: read.decisions.total,
    reads: r.ops,
    errors: r.errors,
    rps: r.rps,
    p50_ms: r.p50_ms,
    p99_ms: r.p99_ms,
    max_ms: r.max_ms,
    target_p99_ms: 20,
    ...(r.cpu_us_per_op !== undefined ? { cpu_us_per_op: r.cpu_us_per_op } : {}),
  };
}

export const stats1mScenario = {
  name: 'stats-1m',
  durationS: 10,
  warmupS: 2,
  run,
  op: (http, params) => http.get(`/v1/stats?window=${params.window}`, { status: 200 }),
};
