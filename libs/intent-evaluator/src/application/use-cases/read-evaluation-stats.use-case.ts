import { Inject, Injectable } from '@nestjs/common';
import type { StatsPartApi, StatsPartDto } from '@igw/contracts';
import { readCounts, STAT_COUNTS_READER, type StatCountsReader, type StatsWindow } from '@igw/kernel';

/**
 * The evaluator's part of the overview (GET /v1/stats): evaluations per bucket by outcome, the
 * tools it denied most and the intentions matched most, from the counts kept with the events.
 */
@Injectable()
export class ReadEvaluationStatsUseCase implements StatsPartApi {
  constructor(@Inject(STAT_COUNTS_READER) private readonly counts: StatCountsReader) {}

  async read(orgId: string, window: StatsWindow, at: Date): Promise<StatsPartDto> {
    const { chart, tops } = await readCounts(this.counts, orgId, window, at, { chart: 'outcome', tops: ['refused_tool', 'intention'] });
    return {
      evaluations: { total: chart.total, by_outcome: chart.totals, series: chart.series },
      refused_tools: tops.refused_tool.map((t) => ({ tool: t.key, count: t.count })),
      intentions: tops.intention.map((t) => ({ intent_label: t.key, count: t.count })),
    };
  }
}
