import { Inject, Injectable } from '@nestjs/common';
import { INTENT_EVALUATOR_API, type EvaluateIntentResponseDto, type IntentEvaluatorApi } from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { mcpToolAction, planLegacyMcpCall, planMcpCall, type AnsweredDecision, type McpCallPlan, type McpServer, type ToolCallCommand } from '../../domain';
import { ToolCallDecisionGate, type VerifiedMandate } from '../decision-gate/tool-call-decision-gate';

/** The `_meta` members of a `tools/call` that become the decision's context (DESIGN 6.13). */
const CONTEXT_META = ['actor', 'on_behalf_of', 'prompt_id'] as const;

/**
 * A `tools/call` decided: the plan, and what it was decided with — the mandate path's decision
 * (as answered and recorded) or the legacy path's evaluation (without its grant). The MCP adapter
 * shows either to the agent (`_meta`, `structuredContent` of a refusal).
 */
export type EnforcedMcpCall = { plan: McpCallPlan } & (
  { decision: AnsweredDecision; evaluation?: never } | { evaluation: Omit<EvaluateIntentResponseDto, 'grant'>; decision?: never }
);

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
    private readonly gate: ToolCallDecisionGate,
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
    const command: ToolCallCommand = { action: mcpToolAction(server.name, tool, args), context, audience: server.name };
    const { decision } = await this.gate.decide(caller, mandate, command);
    return { plan: planMcpCall(server.name, tool, args, decision), decision };
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
    return { plan: planLegacyMcpCall(tool, args, evaluation), evaluation: shown };
  }
}
