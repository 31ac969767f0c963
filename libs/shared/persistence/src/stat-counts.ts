import {
  PeriodicTask,
  STAT_COUNT_GRANULARITIES,
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

/** Where buckets are aligned (date_bin's origin): on UTC minutes, hours and days. */
const EPOCH = "TIMESTAMPTZ '2000-01-01 00:00:00+00'";

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
  private readonly pruneSql: string;

  constructor(
    private readonly db: ServiceDatabase,
    table = STAT_COUNTS_TABLE,
  ) {
    this.table = `"${db.schema}"."${table}"`;
    this.pruneSql = `DELETE FROM ${this.table} WHERE ${STAT_COUNT_GRANULARITIES.map(
      (g, i) => `("granularity" = ${g.bucketMinutes} AND "bucket" < $${i + 1}::timestamptz)`,
    ).join(' OR ')}`;
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
   */
  private readSqlOf(chart: string, tops: readonly string[]): string {
    const cacheKey = `${chart}|${tops.join(',')}`;
    let sql = this.readSql.get(cacheKey);
    if (sql) return sql;
    const totals = tops.map((d) => `'${dimensionName(d)}'`);
    const chartOnly = `SELECT "dimension", "key", extract(epoch FROM "bucket")::float8 * 1000 AS "at", "n" FROM ${this.table}
        WHERE "org_id" = $1 AND "granularity" = $2 AND "dimension" = '${dimensionName(chart)}' AND "bucket" >= $3::timestamptz`;
    const totalsToo = totals.length
      ? `
        UNION ALL
        SELECT "dimension", "key", NULL, "n" * $6::int FROM ${this.table}
        WHERE "org_id" = $1 AND "granularity" = $2 AND "dimension" IN (${totals.join(', ')}) AND "bucket" >= $7::timestamptz AND "bucket" < $8::timestamptz
        UNION ALL
        SELECT "dimension", "key", NULL, "n" FROM ${this.table}
        WHERE "org_id" = $1 AND "granularity" = $4 AND "dimension" IN (${totals.join(', ')}) AND "bucket" >= $5::timestamptz`
      : '';
    sql = `SELECT "dimension", "key", sum("n")::float8 AS n, json_agg(json_build_array("at", "n")) FILTER (WHERE "at" IS NOT NULL) AS "series"
      FROM (${chartOnly}${totalsToo}) AS c
      GROUP BY 1, 2
      HAVING sum("n") > 0`;
    this.readSql.set(cacheKey, sql);
    return sql;
  }

  async read(orgId: string, query: StatCountsQuery): Promise<StatCountRow[]> {
    const rows = await this.db
      .query<{ dimension: string; key: string; n: number | string; series: [number, number | string][] | string | null }>(
        this.readSqlOf(query.chart, query.tops),
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
    return rows.map((r) => {
      const row: StatCountRow = { dimension: r.dimension, key: r.key, n: Number(r.n) };
      if (r.series === null) return row;
      // JSON arrives parsed from PostgreSQL; as text where a driver leaves it so.
      const pairs = typeof r.series === 'string' ? (JSON.parse(r.series) as [number, number | string][]) : r.series;
      return { ...row, series: pairs.map(([bucket, n]) => [Number(bucket), Number(n)] as const) };
    });
  }

  /** Deletes the buckets no window reads any more (each granularity past its window); how many. */
  async prune(now: Date): Promise<number> {
    const cutoffs = STAT_COUNT_GRANULARITIES.map((g) => new Date(now.getTime() - g.keepMinutes * 60_000).toISOString());
    const rows = await this.db
      .query<{ n: number }>(`WITH gone AS (${this.pruneSql} RETURNING 1) SELECT count(*)::int AS n FROM gone`, cutoffs)
      .catch(rethrowUnavailable);
    return rows[0]?.n ?? 0;
  }
}

/** Time between prunes of the counts: a bucket outlives its window by at most this. */
export const STAT_COUNTS_PRUNE_INTERVAL_MS = 10 * 60_000;

/** The prune as a periodic task, at start and then every interval (the service's module starts and stops it). */
export function statCountsPruneTask(table: StatCountsTable, clock: Clock, logger: PeriodicTaskLog, intervalMs = STAT_COUNTS_PRUNE_INTERVAL_MS): PeriodicTask {
  return new PeriodicTask('stat counts prune', () => table.prune(clock.now()), { intervalMs, runAtStart: true }, logger);
}
