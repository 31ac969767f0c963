import type { Command } from 'commander';
import { GatewayError, GatewayNetworkError, abortableSleep, type DecisionsQuery, type HistoryQuery, type IntentEvent } from '@igw/sdk';
import { positiveInt, take, type Ctx } from '../context';
import { table } from '../output';

const COLUMNS = ['created_at', 'id', 'outcome', 'intent_label', 'tool_name', 'user_id'];
type Outcome = NonNullable<HistoryQuery['outcome']>;

/** Errors worth waiting out while following (the gateway restarting, a rate limit). */
const transient = (err: unknown) => err instanceof GatewayNetworkError || (err instanceof GatewayError && [429, 502, 503, 504].includes(err.status));

export function registerHistory(program: Command, ctx: Ctx): void {
  program
    .command('history')
    .description('intent events (evaluations), newest first; --follow prints new ones as they happen until interrupted')
    .option('--outcome <outcome>', 'allowed | denied | pending_approval | approved | shadow_denied')
    .option('--since <time>', 'ISO 8601 timestamp or date')
    .option('--with-call', 'each event with the call it decided (tool call, conversation context) while it is kept')
    .option('--limit <n>', 'at most n events (default 20; with --follow, the backlog shown first)', positiveInt('limit'))
    .option('--follow', 'keep polling and print new events (JSON: one event per line)')
    .option('--interval <ms>', 'poll interval with --follow (default 1000)', positiveInt('interval'))
    .action(async (o: { outcome?: Outcome; since?: string; withCall?: boolean; limit?: number; follow?: boolean; interval?: number }) => {
      const query: HistoryQuery = {
        ...(o.outcome ? { outcome: o.outcome } : {}),
        ...(o.since ? { since: o.since } : {}),
        ...(o.withCall ? { include: 'call' as const } : {}),
      };
      const client = ctx.client();
      const limit = o.limit ?? 20;
      if (!o.follow) {
        const events = await take(client.history({ ...query, limit: Math.min(limit, 200) }), limit);
        if (!o.withCall) return ctx.print({ data: events }, () => table(events, COLUMNS));
        // The arguments as one JSON line in the table; --json has the whole call.
        const rows = events.map((e) => ({ ...e, arguments: e.call ? JSON.stringify(e.call.tool_call.arguments ?? {}) : '—' }));
        return ctx.print({ data: events }, () => table(rows, [...COLUMNS, 'arguments']));
      }

      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const seen = new Set<string>();
      const show = (events: IntentEvent[], header: boolean) => {
        for (const e of events) seen.add(e.id);
        if (ctx.json) for (const e of events) ctx.io.out(`${JSON.stringify(e)}\n`);
        else if (events.length > 0) {
          const lines = table(events, COLUMNS).split('\n');
          ctx.io.out(`${(header ? lines : lines.slice(1)).join('\n')}`);
        }
      };
      try {
        const backlog = await take(client.history({ ...query, limit: Math.min(limit, 200) }), limit);
        show(backlog.reverse(), true);
        ctx.io.err(`igw: following history every ${((o.interval ?? 1000) / 1000).toFixed(1)} s (Ctrl-C to stop)\n`);
        while (!stop.signal.aborted) {
          try {
            await abortableSleep(o.interval ?? 1000, stop.signal);
          } catch {
            break;
          }
          try {
            const fresh: IntentEvent[] = [];
            // Newest first: read until an event already shown (at most 1,000 per poll).
            for await (const e of client.history({ ...query, limit: 100 }, { signal: stop.signal })) {
              if (seen.has(e.id) || fresh.length >= 1000) break;
              fresh.push(e);
            }
            show(fresh.reverse(), seen.size === 0);
            if (seen.size > 10_000) for (const id of [...seen].slice(0, 5_000)) seen.delete(id);
          } catch (err) {
            if (stop.signal.aborted) break;
            if (!transient(err)) throw err;
            ctx.io.err(`igw: ${(err as Error).message}; still following\n`);
          }
        }
        ctx.io.err('igw: stopped\n');
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}

const DECISION_COLUMNS = ['created_at', 'decision_id', 'kind', 'operation', 'cred_id', 'actor'];

/** `igw decisions`: the mandate path's decisions, newest first, by mandate, kind and time. */
export function registerDecisions(program: Command, ctx: Ctx): void {
  program
    .command('decisions')
    .description('decisions of the mandate path (POST /v1/mcp-proxy/call, MCP tool calls), newest first')
    .option('--mandate <cred_id>', 'only the decisions on this mandate')
    .option('--kind <kind>', 'only this decision kind (allow, deny, approval, …)')
    .option('--since <time>', 'created at or after (ISO 8601 timestamp or date)')
    .option('--until <time>', 'created before (ISO 8601 timestamp or date)')
    .option('--with-call', 'each decision with the call it decided (action, context) while it is kept')
    .option('--limit <n>', 'at most n decisions (default 20)', positiveInt('limit'))
    .action(async (o: { mandate?: string; kind?: string; since?: string; until?: string; withCall?: boolean; limit?: number }) => {
      const limit = o.limit ?? 20;
      const query = {
        ...(o.mandate ? { cred_id: o.mandate } : {}),
        ...(o.kind ? { kind: o.kind as NonNullable<DecisionsQuery['kind']> } : {}),
        ...(o.since ? { since: o.since } : {}),
        ...(o.until ? { until: o.until } : {}),
        ...(o.withCall ? { include: 'call' as const } : {}),
        limit: Math.min(limit, 200),
      };
      const decisions = await take(ctx.client().decisions(query), limit);
      const rows = decisions.map((d) => ({ ...d, kind: d.decision.kind }));
      if (!o.withCall) return ctx.print({ data: decisions }, () => table(rows, DECISION_COLUMNS));
      // The action's arguments as one JSON line in the table; --json has the whole call.
      const withArgs = rows.map((d) => ({ ...d, arguments: d.call ? JSON.stringify(d.call.action.arguments ?? {}) : '—' }));
      return ctx.print({ data: decisions }, () => table(withArgs, [...DECISION_COLUMNS, 'arguments']));
    });
}
