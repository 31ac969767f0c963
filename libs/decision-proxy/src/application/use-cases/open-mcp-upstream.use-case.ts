import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Caller } from '@igw/kernel';
import { MCP_UPSTREAMS, type McpUpstreams, type OpenedMcpUpstream } from '../ports/mcp-upstreams.port';
import { DecideToolCallUseCase } from './decide-tool-call.use-case';

/**
 * Every HTTP request to `{base}/mcp/{name}` (DESIGN 6.13), before any MCP traffic: a mandate, when
 * one is sent, must verify for this server (401 `mandate_invalid`, 403, 404 `intent_not_found`
 * as on `/v1/mcp-proxy/call`), and a new session needs the org's server of that name (404).
 */
@Injectable()
export class OpenMcpUpstreamUseCase {
  constructor(
    @Inject(MCP_UPSTREAMS) private readonly upstreams: McpUpstreams,
    private readonly decide: DecideToolCallUseCase,
  ) {}

  /** Checks the mandate of a request in a session already open on `name`. */
  async checkMandate(caller: Caller, name: string, token: string | undefined): Promise<void> {
    if (token !== undefined) await this.decide.mandateAndCard(caller, token, name);
  }

  /** The upstream a new session of `caller` on `name` talks to. */
  async execute(caller: Caller, name: string, token: string | undefined): Promise<OpenedMcpUpstream> {
    await this.checkMandate(caller, name, token);
    const upstream = await this.upstreams.resolve(caller.orgId, name);
    if (upstream === null) throw new AppError('not_found', 'not_found', `MCP server ${name} is not registered in this organisation`);
    return upstream;
  }
}
