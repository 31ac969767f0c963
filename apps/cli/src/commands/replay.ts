import type { Command } from 'commander';
import type { InstallIntentCard, IntentionChange, ReplayRequest, ReplayResult } from '@igw/sdk';
import { positiveInt, readFile, type Ctx } from '../context';
import { EXIT, UsageError } from '../exit-codes';
import { table } from '../output';

const UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `24h`, `90m`, `7d` → that long before `now`, as ISO 8601; anything else is sent as given (the gateway checks it). */
export function relativeTime(value: string, now: Date): string {
  const m = /^(\d{1,6})([mhd])$/.exec(value);
  const unit = m ? UNITS_MS[m[2] ?? ''] : undefined;
  return m && unit ? new Date(now.getTime() - Number(m[1]) * unit).toISOString() : value;
}

/** The draft file: `{"changes": [...]}` or the bare list of changes. */
function readDraft(path: string): IntentionChange[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFile('intention', path));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError('--intention-file is not valid JSON');
  }
  const changes = Array.isArray(parsed) ? parsed : (parsed as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(changes)) throw new UsageError('--intention-file must hold {"changes": [...]} or a list of changes');
  return changes as IntentionChange[];
}

/** The card file: a whole card as `igw cards install` / POST /v1/intent-cards takes it. */
function readCard(path: string): InstallIntentCard {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFile('card', path));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError('--card-file is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--card-file must hold one intent card (a JSON object)');
  return parsed as InstallIntentCard;
}

/** One side of a changed call: an outcome and label (intentions) or a decision kind (card). */
const side = (d: { outcome?: string; intent_label?: string; kind?: string }) => (d.kind ?? `${d.outcome ?? ''} ${d.intent_label ?? ''}`).trim();

/**
 * `igw replay`: what a draft of intentions (or of an intent card) would change on the org's recent calls (POST
 * /v1/replays), every page of changed calls. Exit 0 when nothing changes, 9 when something does
 * (so a pipeline can gate a policy change on it), the usual codes for errors.
 */
export function registerReplay(program: Command, ctx: Ctx): void {
  program
    .command('replay')
    .description('re-decide recent calls against the active intentions (or cards) plus a draft; exit 9 when any decision changes')
    .option('--intention-file <file>', 'JSON {"changes": [{action: create|update|archive, id?, intention?}]} (- for stdin)')
    .option('--card-file <file>', 'JSON intent card as installed (same id: replaces that card), replayed on mandate-path calls (- for stdin)')
    .option('--since <time>', 'window start: ISO 8601, or 90m / 24h / 7d ago (default: the retention window)')
    .option('--until <time>', 'window end: ISO 8601, or 90m / 24h / 7d ago (default: now)')
    .option('--limit <n>', 'at most n calls, oldest first (≤ 10000, default 10000)', positiveInt('limit'))
    .action(async (o: { intentionFile?: string; cardFile?: string; since?: string; until?: string; limit?: number }) => {
      if ((o.intentionFile === undefined) === (o.cardFile === undefined)) throw new UsageError('give one of --intention-file or --card-file');
      const now = new Date();
      const draft: Pick<ReplayRequest, 'kind' | 'changes' | 'card'> =
        o.cardFile !== undefined ? { kind: 'card', card: readCard(o.cardFile) } : { kind: 'intentions', changes: readDraft(o.intentionFile ?? '') };
      const request: ReplayRequest = {
        ...draft,
        ...(o.since ? { since: relativeTime(o.since, now) } : {}),
        ...(o.until ? { until: relativeTime(o.until, now) } : {}),
        ...(o.limit ? { limit: o.limit } : {}),
      };
      const client = ctx.client();
      let result: ReplayResult = await client.replay(request);
      const calls = [...result.calls];
      while (result.next_cursor) {
        result = await client.replay({ ...request, cursor: result.next_cursor });
        calls.push(...result.calls);
      }
      if (calls.length > 0) ctx.exitCode = EXIT.changed;
      const whole = { replayed: result.replayed, transitions: result.transitions, calls, next_cursor: null };
      ctx.print(whole, () => {
        const head = `replayed ${result.replayed} calls; ${calls.length} would change\n`;
        if (calls.length === 0) return head;
        const rows = calls.map((c) => ({
          id: c.id,
          tool_name: c.tool_name,
          before: side(c.before),
          after: side(c.after),
        }));
        return `${head}${result.transitions.length > 0 ? table(result.transitions, ['from', 'to', 'count']) : ''}${table(rows, ['id', 'tool_name', 'before', 'after'])}`;
      });
    });
}
