import { Inject, Injectable } from '@nestjs/common';
import { INTENT_EVALUATOR_API, type IntentEvaluatorApi, type McpProxyCallDto } from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { mcpToolAction, planLegacyMcpCall, planMcpCall, type McpCallPlan, type McpServer } from '../../domain';
import { DecideToolCallUseCase, type VerifiedMandate } from './decide-tool-call.use-case';

/** The `_meta` members of a `tools/call` that become the decision's context (DESIGN 6.13). */
const CONTEXT_META = ['actor', 'on_behalf_of', 'prompt_id'] as const;

export interface EnforcedMcpCall {
  plan: McpCallPlan;
  /** Goes into the `_meta` of the result: `igw/decision_id` (mandate path) or `igw/intent_event_id` (legacy). */
  meta: Record<string, string>;
  /** What a refusal shows in `structuredContent`: `{decision}` or `{evaluation}`. */
  verdict: Record<string, unknown>;
}

/**
 * `tools/call` through the MCP proxy (DESIGN 6.13). With a mandate, the tool is the action
 * `{mcp, S.T, mcp://S/T, arguments}`, `_meta` gives the context, the server's name is the
 * audience and the 6.9 engine decides; without one, the call `{name: "S.T", arguments}` is
 * evaluated on the legacy path (6.4; in shadow mode on a shadow server). Either way the decision
 * is recorded durably before this resolves, and becomes a plan: forward (maybe another tool,
 * fewer arguments, a masked result) or refuse.
 */
@Injectable()
export class EnforceMcpToolCallUseCase {
  constructor(
    private readonly decide: DecideToolCallUseCase,
    @Inject(INTENT_EVALUATOR_API) private readonly evaluator: IntentEvaluatorApi,
  ) {}

  async execute(
    caller: Caller,
    /** The request's mandate, verified for this server; null: the legacy path. */
    mandate: VerifiedMandate | null,
    server: Pick<McpServer, 'name' | 'shadow'>,
    tool: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown>,
  ): Promise<EnforcedMcpCall> {
    if (mandate === null) return this.legacy(caller, server, tool, args, meta);
    const context: Record<string, unknown> = {};
    for (const key of CONTEXT_META) if (meta[key] !== undefined) context[key] = meta[key];
    const request = { action: mcpToolAction(server.name, tool, args), context, audience: server.name } as McpProxyCallDto;
    const decided = await this.decide.decideVerified(caller, mandate, request);
    const decision = decided.body.decision as unknown as Record<string, unknown> & { decision_id: string };
    return { plan: planMcpCall(server.name, tool, args, decision), meta: { 'igw/decision_id': decision.decision_id }, verdict: { decision } };
  }

  private async legacy(
    caller: Caller,
    server: Pick<McpServer, 'name' | 'shadow'>,
    tool: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown>,
  ): Promise<EnforcedMcpCall> {
    const actor = meta['actor'];
    const evaluation = await this.evaluator.evaluate(caller, {
      tool_call: { name: `${server.name}.${tool}`, arguments: args },
      ...(typeof actor === 'string' && actor !== '' ? { user_id: actor.slice(0, 256) } : {}),
      shadow_mode: server.shadow,
    });
    // The grant is for the agent calling the tool itself; through the proxy the call is made here.
    const { grant: _grant, ...shown } = evaluation;
    return { plan: planLegacyMcpCall(tool, args, evaluation), meta: { 'igw/intent_event_id': evaluation.intent_event_id }, verdict: { evaluation: shown } };
  }
}
