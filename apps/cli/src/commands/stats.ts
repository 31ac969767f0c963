import { InvalidArgumentError, type Command } from 'commander';
import type { Stats, StatsWindow } from '@igw/sdk';
import type { Ctx } from '../context';
import { record, table } from '../output';

const WINDOWS: readonly StatsWindow[] = ['1h', '24h', '7d'];

const windowOption = (value: string): StatsWindow => {
  if (!(WINDOWS as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${WINDOWS.join(', ')}`);
  return value as StatsWindow;
};

const counts = (totals: Record<string, number>) =>
  Object.entries(totals)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '-';

/** The overview as text: the figures, then the ranked lists. */
export function statsText(s: Stats): string {
  const share = s.auto_decided.share === null ? '-' : `${(s.auto_decided.share * 100).toFixed(1)} %`;
  const figures = record({
    window: `${s.window} (${s.buckets.length} buckets of ${s.bucket_seconds} s)`,
    evaluations: `${s.evaluations.total} (${counts(s.evaluations.by_outcome)})`,
    decisions: `${s.decisions.total} (${counts(s.decisions.by_kind)})`,
    approvals_pending: s.approvals.pending,
    oldest_pending_s: s.approvals.oldest_pending_age_seconds,
    auto_decided: `${share} (${s.auto_decided.automatic} by the gateway, ${s.auto_decided.human} by a human)`,
  });
  return [
    figures,
    `\nTop refused tools\n${table(s.top_refused_tools, ['tool', 'count'])}`,
    `\nIntentions used\n${table(s.intentions, ['intent_label', 'count'])}`,
    `\nIntent cards used\n${table(s.cards, ['card_id', 'count'])}`,
  ].join('');
}

export function registerStats(program: Command, ctx: Ctx): void {
  program
    .command('stats')
    .description("the org's traffic at a glance (the console overview): evaluations, decisions, approval backlog, refused tools, intentions and cards used")
    .option('--window <window>', '1h (default), 24h or 7d', windowOption)
    .action(async (o: { window?: StatsWindow }) => {
      const stats = await ctx.client().stats(o.window ?? '1h');
      return ctx.print(stats, () => statsText(stats));
    });
}
