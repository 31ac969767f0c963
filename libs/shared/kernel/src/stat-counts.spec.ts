import { AppError } from './errors';
import {
  bucketStart,
  countedSeries,
  parseStatsWindow,
  readCounts,
  seriesOf,
  STAT_COUNT_GRANULARITIES,
  statCountsQuery,
  statsBuckets,
  topCounts,
  totalsOf,
  type StatCountRow,
} from './stat-counts';

const NOW = new Date('2026-03-08T10:07:30.000Z');
const iso = (d: Date) => d.toISOString();

describe('stats windows and buckets', () => {
  it('takes 1h, 24h and 7d (absent → 1h); anything else is a 400 naming window', () => {
    expect(parseStatsWindow(undefined)).toBe('1h');
    expect(parseStatsWindow('24h')).toBe('24h');
    expect(parseStatsWindow('7d')).toBe('7d');
    for (const bad of ['2h', '1H', ['1h'], 7]) {
      const error = (() => {
        try {
          parseStatsWindow(bad);
        } catch (e) {
          return e;
        }
      })() as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('invalid_request');
      expect(error.extra).toEqual({ details: [{ path: 'window', message: 'must be one of 1h, 24h, 7d' }] });
    }
  });

  it('aligns buckets on UTC minutes, quarter hours and hours', () => {
    expect(iso(bucketStart(NOW, 1))).toBe('2026-03-08T10:07:00.000Z');
    expect(iso(bucketStart(NOW, 15))).toBe('2026-03-08T10:00:00.000Z');
    expect(iso(bucketStart(NOW, 60))).toBe('2026-03-08T10:00:00.000Z');
  });

  it('gives 60, 96 and 168 buckets, oldest first, the last holding now', () => {
    const hour = statsBuckets('1h', NOW);
    expect(hour).toHaveLength(60);
    expect(iso(hour[0] as Date)).toBe('2026-03-08T09:08:00.000Z');
    expect(iso(hour[59] as Date)).toBe('2026-03-08T10:07:00.000Z');
    const day = statsBuckets('24h', NOW);
    expect(day).toHaveLength(96);
    expect(iso(day[0] as Date)).toBe('2026-03-07T10:15:00.000Z');
    const week = statsBuckets('7d', NOW);
    expect(week).toHaveLength(168);
    expect(iso(week[0] as Date)).toBe('2026-03-01T11:00:00.000Z');
    expect(iso(week[167] as Date)).toBe('2026-03-08T10:00:00.000Z');
    // Totals from the hour the window starts in, less its first quarter (fewer buckets than the
    // three to the next hour); the chart never among them.
    expect(statCountsQuery('24h', NOW, 'outcome', ['outcome', 'refused_tool'])).toEqual({
      bucketMinutes: 15,
      since: day[0],
      chart: 'outcome',
      tops: ['refused_tool'],
      wideMinutes: 60,
      wideSince: new Date('2026-03-07T10:00:00.000Z'),
      edge: { from: new Date('2026-03-07T10:00:00.000Z'), to: day[0], sign: -1 },
    });
    // The week starting at 11:00 takes off 11 hours of its first day rather than add 13.
    const fromDay = statCountsQuery('7d', NOW, 'kind', []);
    expect([fromDay.wideSince, fromDay.edge]).toEqual([
      new Date('2026-03-01T00:00:00.000Z'),
      { from: new Date('2026-03-01T00:00:00.000Z'), to: week[0], sign: -1 },
    ]);
    // At 20:00 it starts at 21:00 and adds 3 hours to whole days.
    const toDay = statCountsQuery('7d', new Date('2026-03-08T20:00:00.000Z'), 'kind', []);
    expect([toDay.wideSince, toDay.edge]).toEqual([
      new Date('2026-03-02T00:00:00.000Z'),
      { from: new Date('2026-03-01T21:00:00.000Z'), to: new Date('2026-03-02T00:00:00.000Z'), sign: 1 },
    ]);
    // A window starting on a wide bucket reads no narrow ones for its totals.
    const aligned = statCountsQuery('1h', new Date('2026-03-08T10:14:59.000Z'), 'outcome');
    expect([aligned.wideSince, aligned.edge.from, aligned.edge.to]).toEqual([
      new Date('2026-03-08T09:15:00.000Z'),
      new Date('2026-03-08T09:15:00.000Z'),
      new Date('2026-03-08T09:15:00.000Z'),
    ]);
  });

  it('keeps each granularity for its window, half a wider bucket and one bucket; days for the week', () => {
    expect(STAT_COUNT_GRANULARITIES).toEqual([
      { bucketMinutes: 1, keepMinutes: 60 + 8 + 1 },
      { bucketMinutes: 15, keepMinutes: 24 * 60 + 30 + 15 },
      { bucketMinutes: 60, keepMinutes: 7 * 24 * 60 + 12 * 60 + 60 },
      { bucketMinutes: 24 * 60, keepMinutes: 8 * 24 * 60 },
    ]);
  });
});

describe('aggregating counts', () => {
  const buckets = statsBuckets('1h', NOW);
  const at = (i: number) => buckets[i] as Date;
  const rows: StatCountRow[] = [
    {
      dimension: 'outcome',
      key: 'allowed',
      n: 5,
      series: [
        [at(0).getTime(), 2],
        [at(59).getTime(), 3],
      ],
    },
    // Before the window (a store read with a wider range): not charted.
    {
      dimension: 'outcome',
      key: 'denied',
      n: 10,
      series: [
        [at(10).getTime(), 1],
        [at(0).getTime() - 60_000, 9],
      ],
    },
    { dimension: 'refused_tool', key: 'b', n: 4 },
    { dimension: 'refused_tool', key: 'a', n: 4 },
    { dimension: 'refused_tool', key: 'c', n: 7 },
  ];

  it('aligns series on the buckets with zeros, per key seen', () => {
    const series = seriesOf(rows, 'outcome', buckets);
    expect(Object.keys(series).sort()).toEqual(['allowed', 'denied']);
    expect(series.allowed?.[0]).toBe(2);
    expect(series.allowed?.[59]).toBe(3);
    expect(series.allowed?.reduce((a, b) => a + b)).toBe(5);
    expect(series.denied?.reduce((a, b) => a + b)).toBe(1);
    expect(countedSeries(series)).toEqual({ total: 6, totals: { allowed: 5, denied: 1 }, series });
  });

  it('ranks totals largest first, ties by key, at most the limit', () => {
    expect(totalsOf(rows, 'refused_tool')).toEqual([
      { key: 'c', count: 7 },
      { key: 'a', count: 4 },
      { key: 'b', count: 4 },
    ]);
    expect(totalsOf(rows, 'refused_tool', 1)).toEqual([{ key: 'c', count: 7 }]);
    expect(topCounts(new Map(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]))).map((t) => t.key)).toEqual(
      Array.from({ length: 10 }, (_, i) => `k${11 - i}`),
    );
  });

  it('reads a window once, as the chart and the tops', async () => {
    const asked: unknown[] = [];
    const reader = { read: async (orgId: string, q: unknown) => (asked.push([orgId, q]), rows) };
    const read = await readCounts(reader, 'org_1', '1h', NOW, { chart: 'outcome', tops: ['refused_tool'] });
    expect(asked).toEqual([['org_1', statCountsQuery('1h', NOW, 'outcome', ['refused_tool'])]]);
    expect(read.chart.totals).toEqual({ allowed: 5, denied: 1 });
    expect(read.tops.refused_tool).toHaveLength(3);
  });
});
