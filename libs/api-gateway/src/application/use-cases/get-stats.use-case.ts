import { Inject, Injectable } from '@nestjs/common';
import type { StatsDto, StatsPartApi, StatsPartDto, ToolCountDto } from '@igw/contracts';
import { CLOCK, parseStatsWindow, STATS_TOP, STATS_WINDOW_SPECS, statsBuckets, topCounts, type Caller, type Clock, type StatsWindow } from '@igw/kernel';

/** The services' parts of the overview: in-process (embedded) or their internal routes (distributed). */
export const STATS_PARTS = Symbol('STATS_PARTS');

/** Outcomes the gateway answers on its own, and those a human decides or decided (DESIGN 6.15). */
const AUTOMATIC = ['allowed', 'denied', 'shadow_denied'];
const HUMAN = ['pending_approval', 'approved'];

const sum = (totals: Record<string, number>, keys: readonly string[]) => keys.reduce((n, k) => n + (totals[k] ?? 0), 0);

/** The overview from its parts: a part that said nothing of a section leaves it empty. */
export function composeStats(window: StatsWindow, at: Date, parts: readonly StatsPartDto[]): StatsDto {
  const merged: StatsPartDto = {};
  const refused = new Map<string, number>();
  for (const part of parts) {
    for (const t of part.refused_tools ?? []) refused.set(t.tool, (refused.get(t.tool) ?? 0) + t.count);
    Object.assign(merged, part);
  }
  const evaluations = merged.evaluations ?? { total: 0, by_outcome: {}, series: {} };
  const automatic = sum(evaluations.by_outcome, AUTOMATIC);
  const human = sum(evaluations.by_outcome, HUMAN);
  return {
    window,
    bucket_seconds: STATS_WINDOW_SPECS[window].bucketMinutes * 60,
    buckets: statsBuckets(window, at).map((b) => b.toISOString()),
    generated_at: at.toISOString(),
    evaluations,
    decisions: merged.decisions ?? { total: 0, by_kind: {}, series: {} },
    approvals: merged.approvals ?? { pending: 0, oldest_pending_age_seconds: null },
    auto_decided: { share: automatic + human === 0 ? null : automatic / (automatic + human), automatic, human },
    top_refused_tools: topCounts(refused, STATS_TOP).map((t): ToolCountDto => ({ tool: t.key, count: t.count })),
    intentions: merged.intentions ?? [],
    cards: merged.cards ?? [],
  };
}

/**
 * `GET /v1/stats`: the caller's org over a window, composed from the services' counts read at one
 * clock reading (so every part buckets alike). Any key of the org may read.
 */
@Injectable()
export class GetStatsUseCase {
  constructor(
    @Inject(STATS_PARTS) private readonly parts: readonly StatsPartApi[],
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, query: { window?: unknown }): Promise<StatsDto> {
    const window = parseStatsWindow(query.window);
    const at = this.clock.now();
    const parts = await Promise.all(this.parts.map((p) => p.read(caller.orgId, window, at)));
    return composeStats(window, at, parts);
  }
}
