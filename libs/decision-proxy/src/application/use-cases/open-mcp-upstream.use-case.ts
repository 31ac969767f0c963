import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Caller } from '@igw/kernel';
import { MCP_UPSTREAMS, type McpUpstreams, type OpenedMcpUpstream } from '../ports/mcp-upstreams.port';
import { ToolCallDecisionGate, type VerifiedMandate } from '../decision-gate/tool-call-decision-gate';

/**
 * Every HTTP request to `{base}/mcp/{name}` (DESIGN 6.13), before any MCP traffic: a mandate, when
 * one is sent, must verify for this server (401 `mandate_invalid`, 403, 404 `intent_not_found`
 * as on `/v1/mcp-proxy/call`), and a new session needs the org's server of that name (404).
 */
@Injectable()
export class OpenMcpUpstreamUseCase {
  constructor(
    @Inject(MCP_UPSTREAMS) private readonly upstreams: McpUpstreams,
    private readonly gate: ToolCallDecisionGate,
  ) {}

  /**
   * The mandate of a request on `name`, verified for that server (null when none is sent): what
   * the request's `tools/list` and `tools/call` are decided with.
   */
  async checkMandate(caller: Caller, name: string, token: string | undefined): Promise<VerifiedMandate | null> {
    return token === undefined ? null : this.gate.verifyMandate(caller, token, name);
  }

  /** The upstream a new session of `caller` on `name` talks to, and the opening request's mandate. */
  async execute(caller: Caller, name: string, token: string | undefined): Promise<{ upstream: OpenedMcpUpstream; mandate: VerifiedMandate | null }> {
    const mandate = await this.checkMandate(caller, name, token);
    const upstream = await this.upstreams.resolve(caller.orgId, name);
    if (upstream === null) throw new AppError('not_found', 'not_found', `MCP server ${name} is not registered in this organisation`);
    return { upstream, mandate };
  }
}
