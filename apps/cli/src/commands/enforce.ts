import type { Command } from 'commander';
import type { DispenseRequest, ProxyAction } from '@igw/sdk';
import { list, parseJsonOption, positiveInt, readFile, readJsonFile, type Ctx } from '../context';
import { EXIT, UsageError } from '../exit-codes';
import { record } from '../output';

/** Outcomes and decision kinds that refuse the call: the command exits 8. */
const REFUSED_OUTCOMES = new Set(['denied', 'pending_approval']);
const REFUSED_STATUSES = new Set([403, 428]);

export function registerEvaluate(program: Command, ctx: Ctx): void {
  program
    .command('evaluate')
    .description('legacy path: evaluate one tool call (exit 8 when denied or pending approval)')
    .requiredOption('--tool <name>', 'the tool call name')
    .option('--args <json>', 'the tool call arguments as a JSON object (or @file)')
    .option('--user-id <id>')
    .option('--session-id <id>')
    .option('--data-source-id <id>')
    .option('--shadow', 'shadow mode: record what would be denied, allow it')
    .action(async (o: { tool: string; args?: string; userId?: string; sessionId?: string; dataSourceId?: string; shadow?: boolean }) => {
      const args = parseJsonOption('args', o.args);
      const result = await ctx.client().evaluate(
        { name: o.tool, ...(args ? { arguments: args } : {}) },
        {
          ...(o.userId ? { user_id: o.userId } : {}),
          ...(o.sessionId ? { session_id: o.sessionId } : {}),
          ...(o.dataSourceId ? { data_source_id: o.dataSourceId } : {}),
          ...(o.shadow ? { shadow_mode: true } : {}),
        },
      );
      if (REFUSED_OUTCOMES.has(result.outcome)) ctx.exitCode = EXIT.refused;
      ctx.print(result, () =>
        record(result as unknown as Record<string, unknown>, [
          'outcome',
          'intent_label',
          'intent_class',
          'confidence',
          'intent_event_id',
          'approval_request_id',
          'grant',
        ]),
      );
    });
}

/** `--mandate TOKEN`, `--mandate @file`, or IGW_MANDATE. */
function mandateOf(ctx: Ctx, value: string | undefined): string {
  const raw = value ?? ctx.io.env['IGW_MANDATE'];
  if (!raw) throw new UsageError('call needs --mandate TOKEN (or @file, or IGW_MANDATE)');
  return (raw.startsWith('@') ? readFile('mandate', raw.slice(1)) : raw).trim();
}

export function registerMandate(program: Command, ctx: Ctx): void {
  const cmd = program.command('mandate').description('mandates: dispense, refresh, revoke, inspect');
  const shown = ['cred_id', 'expires_at', 'ttl_seconds', 'credential'];
  cmd
    .command('dispense')
    .description('mint a signed mandate for an actor under an intent card (from options, or the whole body with -f)')
    .option('-f, --file <file>', 'JSON body (- for stdin)')
    .option('--intent-id <card>', 'the intent card id')
    .option('--actor <actor>', 'who the mandate is bound to')
    .option('--audience <aud>', 'the service it is for (an MCP server name for /mcp/{name})')
    .option('--operations <ops>', 'comma-separated operations, e.g. crm.contacts.read,crm.contacts.search')
    .option('--resources <res>', 'comma-separated resources, e.g. crm://contacts/*')
    .option('--forbidden <ops>', 'comma-separated forbidden operations')
    .option('--prompt-id <id>')
    .option('--ttl <seconds>', 'TTL (default 300, clamped to the card)', positiveInt('ttl'))
    .option('--context <json>', 'free-form context as a JSON object')
    .option('--credential-only', 'print the JWT alone (for $(igw mandate dispense …))')
    .action(async (o: Record<string, string | number | boolean | undefined>) => {
      const body = (o['file'] ? readJsonFile(String(o['file'])) : {}) as Record<string, unknown>;
      const set = (key: string, value: unknown) => value !== undefined && (body[key] = value);
      set('intent_id', o['intentId']);
      set('actor', o['actor']);
      set('audience', o['audience']);
      set('prompt_id', o['promptId']);
      set('ttl_seconds', o['ttl']);
      set('context', parseJsonOption('context', o['context'] as string | undefined));
      const ops = list(o['operations'] as string | undefined);
      if (ops || o['resources'] || o['forbidden']) {
        const scope = { ...((body['requested_scope'] as object) ?? {}) } as Record<string, unknown>;
        if (ops) scope['operations'] = ops;
        if (o['resources']) scope['resources'] = list(o['resources'] as string);
        if (o['forbidden']) scope['forbidden_operations'] = list(o['forbidden'] as string);
        body['requested_scope'] = scope;
      }
      for (const f of ['intent_id', 'actor', 'audience', 'requested_scope'])
        if (body[f] === undefined) throw new UsageError(`mandate dispense needs ${f === 'requested_scope' ? '--operations' : `--${f.replace('_', '-')}`}`);
      const m = await ctx.client().dispense(body as unknown as DispenseRequest);
      if (o['credentialOnly'] && !ctx.json) return ctx.io.out(`${m.credential}\n`);
      ctx.print(m, () => record(m as unknown as Record<string, unknown>, shown));
    });
  cmd
    .command('refresh <cred_id>')
    .description('extend an unexpired mandate (same cred_id, later exp)')
    .option('--ttl <seconds>', 'new TTL', positiveInt('ttl'))
    .action(async (credId: string, o: { ttl?: number }) => {
      const m = await ctx.client().refresh(credId, o.ttl);
      ctx.print(m, () => record(m as unknown as Record<string, unknown>, [...shown, 'refresh_count']));
    });
  cmd
    .command('revoke <cred_id>')
    .description('revoke a mandate (idempotent) and its broker credential')
    .option('--reason <text>')
    .action(async (credId: string, o: { reason?: string }) => {
      const r = await ctx.client().revoke(credId, o.reason);
      ctx.print(r, () => record(r));
    });
  cmd
    .command('inspect <cred_id>')
    .description('show a dispensed mandate (never its signature)')
    .action(async (credId: string) => {
      const v = await ctx.client().inspectMandate(credId);
      ctx.print(v, () => record(v as unknown as Record<string, unknown>));
    });
}

export function registerCall(program: Command, ctx: Ctx): void {
  program
    .command('call')
    .description('mandate path: ask POST /v1/mcp-proxy/call for a decision (exit 8 for deny, deny_with_reroute, approval, step_up)')
    .option('--mandate <jwt>', 'the mandate (or @file; default IGW_MANDATE)')
    .requiredOption('--operation <op>', 'e.g. crm.contacts.read')
    .option('--target <resource>', 'target_resource, e.g. crm://contacts/42')
    .option('--surface <surface>', 'where the call comes from', 'sdk')
    .option('--args <json>', 'the action arguments as a JSON object (or @file)')
    .option('--context <json>', 'context (actor, on_behalf_of, prompt_id, …) as a JSON object')
    .option('--audience <aud>', "default: the mandate's aud")
    .action(async (o: { mandate?: string; operation: string; target?: string; surface: string; args?: string; context?: string; audience?: string }) => {
      const args = parseJsonOption('args', o.args);
      const context = parseJsonOption('context', o.context);
      const action: ProxyAction = {
        surface: o.surface,
        operation: o.operation,
        ...(o.target ? { target_resource: o.target } : {}),
        ...(args ? { arguments: args } : {}),
      };
      const result = await ctx
        .client()
        .withMandate(mandateOf(ctx, o.mandate))
        .call(action, { ...(o.audience ? { audience: o.audience } : {}), ...(context ? { context } : {}) });
      if (REFUSED_STATUSES.has(result.status)) ctx.exitCode = EXIT.refused;
      ctx.print(result, () => record({ status: result.status, ...result.decision, cred_id: result.mandate.cred_id }));
    });
}
