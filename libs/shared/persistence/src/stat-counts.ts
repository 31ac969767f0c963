import {
  PeriodicTask,
  STAT_COUNT_GRANULARITIES,
  bucketStart,
  type Clock,
  type PeriodicTaskLog,
  type StatCountRow,
  type StatCountsQuery,
  type StatCountsReader,
} from '@igw/kernel';
import type { ServiceDatabase } from './database';
import { rethrowUnavailable } from './unavailable';

/** The table every service keeps its overview counts in (its own schema); see the `stat_counts` migrations. */
export const STAT_COUNTS_TABLE = 'stat_counts';

/** What one recorded row adds to: a dimension and the SQL expression of its key over the source (NULL: not counted). */
export interface CountedDimension {
  name: string;
  key: string;
}

/** Where the counted rows come from in the recording statement: usually the RETURNING of its INSERT. */
export interface CountedSource {
  /** `fresh f`: a CTE of the rows just written, with an alias. */
  from: string;
  orgId: string;
  at: string;
}

/** Completed hours rolled up into a row per UTC day and key, and the roll-up's mark (see the migrations). */
export const STAT_HOURS_BY_DAY_TABLE = 'stat_hours_by_day';
export const STAT_ROLLUP_MARK_TABLE = 'stat_rollup_mark';

/** Where buckets are aligned (date_bin's origin): on UTC minutes, hours and days. */
const EPOCH = "TIMESTAMPTZ '2000-01-01 00:00:00+00'";

const HOUR_MS = 3_600_000;
/** The granularity rolled up into days (the week's chart), and the days' own. */
const HOUR_MINUTES = 60;
const DAY_MINUTES = 24 * 60;

const granularityOf = (bucketMinutes: number) => {
  const i = STAT_COUNT_GRANULARITIES.findIndex((g) => g.bucketMinutes === bucketMinutes);
  if (i < 0) throw new Error(`no stat count granularity of ${bucketMinutes} minutes`);
  return { index: i, keepMinutes: (STAT_COUNT_GRANULARITIES[i] as { keepMinutes: number }).keepMinutes };
};
const HOURS = granularityOf(HOUR_MINUTES);
const DAYS = granularityOf(DAY_MINUTES);

/**
 * How long after an hour ends it is rolled up: a call is counted in the hour its replica's clock
 * gave it, and committed up to a batch's wait later, so an hour is final only some time after.
 */
export const STAT_ROLLUP_MARGIN_MS = 5 * 60_000;

/**
 * How far before its mark each roll-up recomputes the hours from the hourly rows: a call committed
 * up to this late after the mark passed its hour is still charted.
 */
const STAT_ROLLUP_REDO_MS = HOUR_MS;

const dimensionName = (name: string): string => {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`stat count dimension ${name} must be lower-case letters and _`);
  return name;
};

/**
 * Per-bucket counts written with the events they count (DESIGN 6.14): `upsertSql` is one
 * data-modifying CTE for the recording statement, so a count is committed exactly when its row is
 * and a refused row is never counted. The batch is grouped in SQL first: one upsert per (org,
 * granularity, bucket, dimension, key) per commit, whatever the number of rows.
 */
export class StatCountsTable implements StatCountsReader {
  readonly table: string;
  /** The read's text per (chart, tops): the dimensions are written into it, as literals. */
  private readonly readSql = new Map<string, string>();
  private readonly days: string;
  private readonly mark: string;
  private readonly pruneSql: string;
  private readonly rollUpSql: string;

  constructor(
    private readonly db: ServiceDatabase,
    table = STAT_COUNTS_TABLE,
  ) {
    this.table = `"${db.schema}"."${table}"`;
    this.days = `"${db.schema}"."${STAT_HOURS_BY_DAY_TABLE}"`;
    this.mark = `"${db.schema}"."${STAT_ROLLUP_MARK_TABLE}"`;
    const dayKeep = STAT_COUNT_GRANULARITIES.length + 1;
    this.pruneSql = `WITH gone AS (DELETE FROM ${this.table} WHERE ${STAT_COUNT_GRANULARITIES.map(
      (g, i) => `("granularity" = ${g.bucketMinutes} AND "bucket" < $${i + 1}::timestamptz)`,
    ).join(' OR ')} RETURNING 1),
      gone_days AS (DELETE FROM ${this.days} WHERE "day" < $${dayKeep}::timestamptz RETURNING 1)
      SELECT (SELECT count(*) FROM gone)::int + (SELECT count(*) FROM gone_days)::int AS n`;
    this.rollUpSql = rollUpSql(this.table, this.days, this.mark);
  }

  /**
   * The upsert CTE counting `source`'s rows: each row adds 1 to every dimension whose key is not
   * NULL, at every granularity.
   */
  upsertSql(source: CountedSource, dimensions: readonly CountedDimension[]): string {
    const granularities = STAT_COUNT_GRANULARITIES.map((g) => `(${g.bucketMinutes})`).join(', ');
    const keys = dimensions.map((d) => `('${dimensionName(d.name)}', (${d.key})::text)`).join(', ');
    // The batch is counted per minute and key first (a few rows, however many calls), then summed
    // into each granularity's buckets: one date_bin per call and key, not one per granularity.
    return `INSERT INTO ${this.table} AS t ("org_id", "granularity", "bucket", "dimension", "key", "n")
        WITH stat_m AS (
          SELECT ${source.orgId} AS org_id, date_bin(INTERVAL '1 minute', ${source.at}, ${EPOCH}) AS minute, stat_d.dimension, stat_d.key, count(*) AS n
          FROM ${source.from}
          CROSS JOIN LATERAL (VALUES ${keys}) AS stat_d(dimension, key)
          WHERE stat_d.key IS NOT NULL
          GROUP BY 1, 2, 3, 4)
        SELECT org_id, stat_g.m, date_bin(make_interval(mins => stat_g.m), minute, ${EPOCH}), dimension, key, sum(n)::bigint
        FROM stat_m CROSS JOIN (VALUES ${granularities}) AS stat_g(m)
        GROUP BY 1, 2, 3, 4, 5
        ON CONFLICT ("org_id", "granularity", "dimension", "bucket", "key") DO UPDATE SET "n" = t."n" + excluded."n"`;
  }

  /**
   * A window's rows: three index-only range scans of (org, granularity, dimension, bucket) and one
   * aggregate, a row per key. The chart dimension's buckets come as one JSON array of [epoch ms, n]
   * (parsing a row per bucket, not the scan, was the cost); the tops' totals are the wider buckets
   * from `wideSince`, plus or minus the window's own buckets at its start (`edge`); a key whose
   * counts were all taken off is no row (nor one with fewer in its day than in its hours, which
   * only a replica of a version before the day buckets can leave, during a rolling upgrade).
   *
   * An hourly chart (the week) reads the rolled-up days (`days`, [day epoch ms, 24 counts]) and
   * only the hourly rows from the roll-up's mark: the mark and the days are read in one snapshot,
   * and a day's hours hold exactly the hours before the mark, so no hour is read twice or missed.
   */
  private readSqlOf(chart: string, tops: readonly string[], rolledUp: boolean): string {
    const cacheKey = `${chart}|${tops.join(',')}|${rolledUp}`;
    let sql = this.readSql.get(cacheKey);
    if (sql) return sql;
    const totals = tops.map((d) => `'${dimensionName(d)}'`);
    const hourlyFrom = rolledUp ? `greatest($3::timestamptz, (SELECT "hours_to" FROM ${this.mark} WHERE "id" = 1))` : '$3::timestamptz';
    const chartOnly = `SELECT "dimension", "key", extract(epoch FROM "bucket")::float8 * 1000 AS "at", "n", NULL::bigint[] AS "hours" FROM ${this.table}
        WHERE "org_id" = $1 AND "granularity" = $2 AND "dimension" = '${dimensionName(chart)}' AND "bucket" >= ${hourlyFrom}`;
    const days = rolledUp
      ? `
        UNION ALL
        SELECT "dimension", "key", extract(epoch FROM "day")::float8 * 1000, NULL, "hours" FROM ${this.days}
        WHERE "org_id" = $1 AND "dimension" = '${dimensionName(chart)}' AND "day" > $3::timestamptz - INTERVAL '1 day'`
      : '';
    const totalsToo = totals.length
      ? `
        UNION ALL
        SELECT "dimension", "key", NULL, "n" * $6::int, NULL FROM ${this.table}
        WHERE "org_id" = $1 AND "granularity" = $2 AND "dimension" IN (${totals.join(', ')}) AND "bucket" >= $7::timestamptz AND "bucket" < $8::timestamptz
        UNION ALL
        SELECT "dimension", "key", NULL, "n", NULL FROM ${this.table}
        WHERE "org_id" = $1 AND "granularity" = $4 AND "dimension" IN (${totals.join(', ')}) AND "bucket" >= $5::timestamptz`
      : '';
    sql = `SELECT "dimension", "key", coalesce(sum("n"), 0)::float8 AS n,
        json_agg(json_build_array("at", "n")) FILTER (WHERE "at" IS NOT NULL AND "hours" IS NULL) AS "series",
        json_agg(json_build_array("at", "hours")) FILTER (WHERE "hours" IS NOT NULL) AS "days"
      FROM (${chartOnly}${days}${totalsToo}) AS c
      GROUP BY 1, 2
      HAVING sum("n") > 0 OR count("hours") > 0`;
    this.readSql.set(cacheKey, sql);
    return sql;
  }

  async read(orgId: string, query: StatCountsQuery): Promise<StatCountRow[]> {
    const rolledUp = query.bucketMinutes === HOUR_MINUTES;
    const rows = await this.db
      .query<ReadRow>(
        this.readSqlOf(query.chart, query.tops, rolledUp),
        query.tops.length
          ? [
              orgId,
              query.bucketMinutes,
              query.since.toISOString(),
              query.wideMinutes,
              query.wideSince.toISOString(),
              query.edge.sign,
              query.edge.from.toISOString(),
              query.edge.to.toISOString(),
            ]
          : [orgId, query.bucketMinutes, query.since.toISOString()],
      )
      .catch(rethrowUnavailable);
    const since = query.since.getTime();
    const out: StatCountRow[] = [];
    for (const r of rows) {
      let n = Number(r.n);
      if (r.series === null && r.days === null) {
        out.push({ dimension: r.dimension, key: r.key, n });
        continue;
      }
      const series = jsonOf(r.series).map(([bucket, count]) => [Number(bucket), Number(count)] as const);
      for (const [day, hours] of jsonOf(r.days)) {
        const start = Number(day);
        hours.forEach((count, h) => {
          const bucket = start + h * HOUR_MS;
          const c = Number(count);
          if (c === 0 || bucket < since) return;
          series.push([bucket, c]);
          n += c;
        });
      }
      if (n > 0 || series.length) out.push({ dimension: r.dimension, key: r.key, n, series });
    }
    return out;
  }

  /**
   * Rolls the completed hours up into their days' rows, up to the last hour that ended
   * `STAT_ROLLUP_MARGIN_MS` before `now`; how many day rows changed. The hours from an hour before
   * the mark are recomputed from the hourly rows (set, not added: idempotent, whichever replica
   * runs it, however often), and the mark moves in the same transaction. The mark never goes back
   * (a replica whose clock is behind recomputes up to the mark, no less) nor past the database's
   * clock. The recording path is not touched. The first roll-up covers every hour kept.
   */
  async rollUpHours(now: Date): Promise<number> {
    return this.db
      .transaction(async (tx) => {
        // Replicas roll up one after the other: each statement below sees the last one's commit.
        const [mark] = await tx.query<{ to: number | null; db_now: number }>(
          `SELECT extract(epoch FROM "hours_to")::float8 * 1000 AS "to", extract(epoch FROM now())::float8 * 1000 AS "db_now"
           FROM ${this.mark} WHERE "id" = 1 FOR UPDATE`,
        );
        // Never past the database's clock: a replica whose clock runs ahead would move the mark
        // over hours still being counted, for good (the mark never goes back).
        const clockNow = Math.min(now.getTime(), mark?.db_now ?? now.getTime());
        const latest = bucketStart(new Date(clockNow - STAT_ROLLUP_MARGIN_MS), HOUR_MINUTES).getTime();
        const earliest = bucketStart(new Date(latest - HOURS.keepMinutes * 60_000), HOUR_MINUTES).getTime();
        const previous = mark?.to ?? null;
        const to = previous === null ? latest : Math.max(latest, previous);
        const from = previous === null ? earliest : Math.max(earliest, previous - STAT_ROLLUP_REDO_MS);
        const rows = await tx.query<{ n: number }>(this.rollUpSql, [new Date(from).toISOString(), new Date(to).toISOString()]);
        return rows[0]?.n ?? 0;
      })
      .catch(rethrowUnavailable);
  }

  /** Deletes the buckets no window reads any more (each granularity past its window); how many. */
  async prune(now: Date): Promise<number> {
    const cutoffs = STAT_COUNT_GRANULARITIES.map((g) => new Date(now.getTime() - g.keepMinutes * 60_000).toISOString());
    // A day's hours are kept as long as the days are (the week's chart starts inside its first day).
    const dayCutoff = cutoffs[DAYS.index];
    const rows = await this.db.query<{ n: number }>(this.pruneSql, [...cutoffs, dayCutoff]).catch(rethrowUnavailable);
    return rows[0]?.n ?? 0;
  }
}

/**
 * Time between upkeeps of the counts (a roll-up, then a prune): a bucket outlives its window by at
 * most this, and the week's chart reads at most about an hour and this of hourly rows per key.
 */
export const STAT_COUNTS_UPKEEP_INTERVAL_MS = 5 * 60_000;

/** The roll-up and the prune as one periodic task, at start and then every interval (the service's module starts and stops it). */
export function statCountsUpkeepTask(table: StatCountsTable, clock: Clock, logger: PeriodicTaskLog, intervalMs = STAT_COUNTS_UPKEEP_INTERVAL_MS): PeriodicTask {
  return new PeriodicTask(
    'stat counts upkeep',
    async () => {
      const now = clock.now();
      // The prune runs whatever the roll-up does: counts must not pile up behind a failing roll-up.
      let failure: unknown = null;
      const rolled = await table.rollUpHours(now).catch((err: unknown) => {
        failure = err;
        return 0;
      });
      const pruned = await table.prune(now);
      if (failure !== null) throw failure;
      return rolled + pruned;
    },
    { intervalMs, runAtStart: true },
    logger,
  );
}

/**
 * The roll-up of the hours in [$1, $2) (whole hours): per (org, dimension, day, key) with hourly
 * rows there, the day's 24 counts, those hours from the hourly rows (0 where none) and the others
 * as they were; upserted where changed; then the mark at $2. A day's hours after the mark stay 0
 * until it passes them.
 */
function rollUpSql(table: string, days: string, mark: string): string {
  const each = (f: (h: number) => string) => Array.from({ length: 24 }, (_, h) => f(h)).join(',\n        ');
  const inRange = (h: number) => `s."day" + INTERVAL '${h} hours' >= $1::timestamptz AND s."day" + INTERVAL '${h} hours' < $2::timestamptz`;
  return `WITH fresh AS (
      SELECT "org_id", "dimension", "day", "key", ARRAY[${each((h) => `sum("n") FILTER (WHERE "h" = ${h})`)}]::bigint[] AS "hours"
      FROM (SELECT "org_id", "dimension", date_bin(INTERVAL '1 day', "bucket", ${EPOCH}) AS "day", "key", "n",
                   extract(hour FROM "bucket" AT TIME ZONE 'UTC')::int AS "h"
            FROM ${table} WHERE "granularity" = ${HOUR_MINUTES} AND "bucket" >= $1::timestamptz AND "bucket" < $2::timestamptz) AS c
      GROUP BY 1, 2, 3, 4),
    merged AS (
      SELECT s."org_id", s."dimension", s."day", s."key", d."hours" AS "was", ARRAY[
        ${each((h) => `CASE WHEN ${inRange(h)} THEN coalesce(s."hours"[${h + 1}], 0) ELSE coalesce(d."hours"[${h + 1}], 0) END`)}
      ]::bigint[] AS "hours"
      FROM fresh s LEFT JOIN ${days} d USING ("org_id", "dimension", "day", "key")),
    rolled AS (
      INSERT INTO ${days} AS d ("org_id", "dimension", "day", "key", "hours")
      SELECT "org_id", "dimension", "day", "key", "hours" FROM merged WHERE "was" IS DISTINCT FROM "hours"
      ON CONFLICT ("org_id", "dimension", "day", "key") DO UPDATE SET "hours" = excluded."hours"
      RETURNING 1)
    INSERT INTO ${mark} ("id", "hours_to") VALUES (1, $2::timestamptz) ON CONFLICT ("id") DO UPDATE SET "hours_to" = excluded."hours_to"
    RETURNING (SELECT count(*) FROM rolled)::int AS n`;
}

interface ReadRow {
  dimension: string;
  key: string;
  n: number | string;
  series: [number, number | string][] | string | null;
  days: [number, (number | string)[]][] | string | null;
}

/** JSON arrives parsed from PostgreSQL; as text where a driver leaves it so. */
function jsonOf<T>(value: T[] | string | null): T[] {
  if (value === null) return [];
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}
