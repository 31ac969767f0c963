import { Injectable } from '@nestjs/common';
import type { McpProxyCallDto } from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { mcpToolAction, planMcpCall, type McpCallPlan } from '../../domain';
import { DecideToolCallUseCase } from './decide-tool-call.use-case';

/** The `_meta` members of a `tools/call` that become the decision's context (DESIGN 6.13). */
const CONTEXT_META = ['actor', 'on_behalf_of', 'prompt_id'] as const;

export interface EnforcedMcpCall {
  /** The decision as recorded and answered by the engine (with `decision_id`). */
  decision: Record<string, unknown> & { kind: string; decision_id: string };
  plan: McpCallPlan;
}

/**
 * `tools/call` through the MCP proxy, mandate path (DESIGN 6.13): the tool is the action
 * `{mcp, S.T, mcp://S/T, arguments}`, `_meta` gives the context, the server's name is the
 * audience; the 6.9 engine decides and records (durably, before this resolves), and the decision
 * becomes a plan: forward (maybe another tool, fewer arguments, a masked result) or refuse.
 */
@Injectable()
export class EnforceMcpToolCallUseCase {
  constructor(private readonly decide: DecideToolCallUseCase) {}

  async execute(
    caller: Caller,
    token: string | undefined,
    server: string,
    tool: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown>,
  ): Promise<EnforcedMcpCall> {
    const context: Record<string, unknown> = {};
    for (const key of CONTEXT_META) if (meta[key] !== undefined) context[key] = meta[key];
    const request = { action: mcpToolAction(server, tool, args), context, audience: server } as McpProxyCallDto;
    const decided = await this.decide.execute(caller, token, request);
    const decision = decided.body.decision as unknown as EnforcedMcpCall['decision'];
    return { decision, plan: planMcpCall(server, tool, args, decision) };
  }
}
