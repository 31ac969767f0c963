import { Inject, Injectable } from '@nestjs/common';
import type { StatsPartApi, StatsPartDto } from '@igw/contracts';
import { readCounts, STAT_COUNTS_READER, type StatCountsReader, type StatsWindow } from '@igw/kernel';

/**
 * The decision proxy's part of the overview (GET /v1/stats): mandate-path decisions per bucket by
 * kind, the operations it denied most and the intent cards used most, from the counts kept with
 * the decisions.
 */
@Injectable()
export class ReadDecisionStatsUseCase implements StatsPartApi {
  constructor(@Inject(STAT_COUNTS_READER) private readonly counts: StatCountsReader) {}

  async read(orgId: string, window: StatsWindow, at: Date): Promise<StatsPartDto> {
    const { chart, tops } = await readCounts(this.counts, orgId, window, at, { chart: 'kind', tops: ['refused_tool', 'card'] });
    return {
      decisions: { total: chart.total, by_kind: chart.totals, series: chart.series },
      refused_tools: tops.refused_tool.map((t) => ({ tool: t.key, count: t.count })),
      cards: tops.card.map((t) => ({ card_id: t.key, count: t.count })),
    };
  }
}
