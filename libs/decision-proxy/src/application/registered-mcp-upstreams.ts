import { Inject, Injectable } from '@nestjs/common';
import { HEADER_SEALER, openHeaders, type HeaderSealer } from './mcp-header-sealing';
import type { McpUpstreams, OpenedMcpUpstream } from './ports/mcp-upstreams.port';
import { MCP_SERVER_REPOSITORY, type McpServerRepository } from './ports/mcp-server.repository.port';

/**
 * The MCP endpoint's view of the registry (provided as MCP_UPSTREAMS): the org's server by name,
 * its headers opened for forwarding. Read from the store on every call, so a deletion or a new
 * registration takes effect at once on every replica.
 */
@Injectable()
export class RegisteredMcpUpstreams implements McpUpstreams {
  constructor(
    @Inject(MCP_SERVER_REPOSITORY) private readonly servers: McpServerRepository,
    @Inject(HEADER_SEALER) private readonly sealer: HeaderSealer,
  ) {}

  async resolve(orgId: string, name: string): Promise<OpenedMcpUpstream | null> {
    const stored = await this.servers.findByName(orgId, name);
    if (!stored) return null;
    const { headersSealed, kekId: _kekId, ...server } = stored;
    return { server, headers: openHeaders(this.sealer, server, headersSealed) };
  }
}
