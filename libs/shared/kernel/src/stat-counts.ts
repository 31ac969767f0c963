import { invalidRequest } from './errors';

/**
 * Counts kept per time bucket for the console overview (`GET /v1/stats`, DESIGN 6.14): each service
 * adds to them in the statement that records its events, so reading a window costs the number of
 * buckets and keys, never the number of calls.
 */

/** The windows the overview shows. */
export const STATS_WINDOWS = ['1h', '24h', '7d'] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];

/**
 * How long each window is and how wide its buckets are. Every bucket size is kept as its own
 * granularity, so a window reads at most 168 buckets per key whatever the traffic.
 */
export const STATS_WINDOW_SPECS: Readonly<Record<StatsWindow, { minutes: number; bucketMinutes: number }>> = {
  '1h': { minutes: 60, bucketMinutes: 1 },
  '24h': { minutes: 24 * 60, bucketMinutes: 15 },
  '7d': { minutes: 7 * 24 * 60, bucketMinutes: 60 },
};

/**
 * Each window's totals per key are read from the next wider buckets, and from the window's own
 * buckets only at its start: the ones between its start and the next wider bucket are added, or,
 * when fewer, the ones between the wider bucket it starts in and its start are taken off. A week
 * of totals is 7 or 8 days and at most 12 hours per key, not 168 hours.
 */
const WIDER_BUCKET_MINUTES: Readonly<Record<StatsWindow, number>> = { '1h': 15, '24h': 60, '7d': 24 * 60 };

/**
 * The bucket widths counts are written at (minutes), and how long each is kept: the longest window
 * that reads it, plus the half wider bucket its totals may take off, plus one bucket. The day is
 * read only for the week's totals.
 */
export const STAT_COUNT_GRANULARITIES: readonly { bucketMinutes: number; keepMinutes: number }[] = [
  ...STATS_WINDOWS.map((w) => {
    const spec = STATS_WINDOW_SPECS[w];
    return { bucketMinutes: spec.bucketMinutes, keepMinutes: spec.minutes + Math.ceil(WIDER_BUCKET_MINUTES[w] / 2) + spec.bucketMinutes };
  }),
  { bucketMinutes: WIDER_BUCKET_MINUTES['7d'], keepMinutes: STATS_WINDOW_SPECS['7d'].minutes + WIDER_BUCKET_MINUTES['7d'] },
];

/** Most keys a "top" list (refused tools, intentions, cards) shows. */
export const STATS_TOP = 10;

/** `window` as the route takes it: 400 naming the field otherwise (absent → 1h). */
export function parseStatsWindow(value: unknown): StatsWindow {
  if (value === undefined || value === '') return '1h';
  if (typeof value === 'string' && (STATS_WINDOWS as readonly string[]).includes(value)) return value as StatsWindow;
  throw invalidRequest(`window must be one of ${STATS_WINDOWS.join(', ')}`, [{ path: 'window', message: `must be one of ${STATS_WINDOWS.join(', ')}` }]);
}

const MINUTE_MS = 60_000;

/** The start of the bucket `at` falls in (buckets are aligned on the Unix epoch, so on UTC hours). */
export function bucketStart(at: Date, bucketMinutes: number): Date {
  const width = bucketMinutes * MINUTE_MS;
  return new Date(Math.floor(at.getTime() / width) * width);
}

/** The window's first bucket at `now`. */
function windowStart(window: StatsWindow, now: Date): number {
  const { minutes, bucketMinutes } = STATS_WINDOW_SPECS[window];
  return bucketStart(now, bucketMinutes).getTime() - (minutes - bucketMinutes) * MINUTE_MS;
}

/** The window's buckets at `now`, oldest first; the last one holds `now` (and is still filling). */
export function statsBuckets(window: StatsWindow, now: Date): Date[] {
  const { minutes, bucketMinutes } = STATS_WINDOW_SPECS[window];
  const first = windowStart(window, now);
  return Array.from({ length: minutes / bucketMinutes }, (_, i) => new Date(first + i * bucketMinutes * MINUTE_MS));
}

/**
 * One key of one dimension as a count store reads it over a window: its total and, for the chart
 * dimension only, its counts per bucket as `[bucket start in epoch ms, count]` pairs. One row per
 * key, not per bucket: a week of hourly buckets is one row per outcome, not 168.
 */
export interface StatCountRow {
  dimension: string;
  key: string;
  n: number;
  series?: readonly (readonly [number, number])[];
}

export interface StatCountsQuery {
  bucketMinutes: number;
  /** The first bucket of the window. */
  since: Date;
  /** The dimension read bucket by bucket (the chart), over [since, now]. */
  chart: string;
  /**
   * The other dimensions, read as totals per key: `wideMinutes` buckets from `wideSince`, plus
   * (sign 1) or minus (sign -1) the `bucketMinutes` buckets over [edge.from, edge.to).
   */
  tops: readonly string[];
  wideMinutes: number;
  wideSince: Date;
  edge: { from: Date; to: Date; sign: 1 | -1 };
}

/** Where a service's counts are read (its own schema). */
export interface StatCountsReader {
  read(orgId: string, query: StatCountsQuery): Promise<StatCountRow[]>;
}

export const STAT_COUNTS_READER = Symbol('STAT_COUNTS_READER');

/** The query of a window at `now`. */
export function statCountsQuery(window: StatsWindow, now: Date, chart: string, tops: readonly string[] = []): StatCountsQuery {
  const since = new Date(windowStart(window, now));
  const wideMinutes = WIDER_BUCKET_MINUTES[window];
  const wide = wideMinutes * MINUTE_MS;
  const before = new Date(Math.floor(since.getTime() / wide) * wide);
  const after = new Date(Math.ceil(since.getTime() / wide) * wide);
  // Add the narrow buckets up to the next wide one, or take off those since the wide one the
  // window starts in: whichever is fewer (none when the window starts on a wide bucket).
  const add = after.getTime() - since.getTime() <= since.getTime() - before.getTime();
  return {
    bucketMinutes: STATS_WINDOW_SPECS[window].bucketMinutes,
    since,
    chart,
    tops: tops.filter((d) => d !== chart),
    wideMinutes,
    wideSince: add ? after : before,
    edge: add ? { from: since, to: after, sign: 1 } : { from: before, to: since, sign: -1 },
  };
}

/** Per key of `dimension`, its counts aligned on `buckets` (0 where none); keys with no count are absent. */
export function seriesOf(rows: readonly StatCountRow[], dimension: string, buckets: readonly Date[]): Record<string, number[]> {
  const index = new Map(buckets.map((b, i) => [b.getTime(), i]));
  const series: Record<string, number[]> = {};
  for (const row of rows) {
    if (row.dimension !== dimension || !row.series) continue;
    for (const [bucket, n] of row.series) {
      const i = index.get(bucket);
      if (i === undefined) continue;
      const line = (series[row.key] ??= buckets.map(() => 0));
      line[i] = (line[i] ?? 0) + n;
    }
  }
  return series;
}

/** The window's totals of `dimension`, largest first (then by key), at most `limit`. */
export function totalsOf(rows: readonly StatCountRow[], dimension: string, limit = STATS_TOP): { key: string; count: number }[] {
  const totals = new Map<string, number>();
  for (const row of rows) if (row.dimension === dimension) totals.set(row.key, (totals.get(row.key) ?? 0) + row.n);
  return topCounts(totals, limit);
}

/** Counts by key, largest first (ties by key), at most `limit`. */
export function topCounts(counts: ReadonlyMap<string, number>, limit = STATS_TOP): { key: string; count: number }[] {
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, limit);
}

/** One charted dimension over a window: per key its buckets and total, and the sum of all. */
export interface CountedSeries {
  total: number;
  totals: Record<string, number>;
  series: Record<string, number[]>;
}

export function countedSeries(series: Record<string, number[]>): CountedSeries {
  const totals = Object.fromEntries(Object.entries(series).map(([key, line]) => [key, line.reduce((a, b) => a + b, 0)]));
  return { total: Object.values(totals).reduce((a, b) => a + b, 0), totals, series };
}

/**
 * What a service's counts say of a window at `now`: `chart` read bucket by bucket, each of `tops`
 * as its largest totals. One read of the store.
 */
export async function readCounts<T extends string>(
  reader: StatCountsReader,
  orgId: string,
  window: StatsWindow,
  now: Date,
  dimensions: { chart: string; tops: readonly T[] },
): Promise<{ chart: CountedSeries; tops: Record<T, { key: string; count: number }[]> }> {
  const rows = await reader.read(orgId, statCountsQuery(window, now, dimensions.chart, dimensions.tops));
  const chart = countedSeries(seriesOf(rows, dimensions.chart, statsBuckets(window, now)));
  const tops = Object.fromEntries(dimensions.tops.map((d) => [d, totalsOf(rows, d)])) as Record<T, { key: string; count: number }[]>;
  return { chart, tops };
}
