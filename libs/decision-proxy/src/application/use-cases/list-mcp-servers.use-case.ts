import { Inject, Injectable } from '@nestjs/common';
import type { McpServerListDto } from '@igw/contracts';
import { parseKeysetQuery, toPage, type Caller, type QueryValue } from '@igw/kernel';
import { MCP_SERVER_REPOSITORY, type McpServerRepository } from '../ports/mcp-server.repository.port';
import { toMcpServerDto } from './mcp-server-views';

/** `GET /v1/mcp-servers`: the org's upstreams, newest first, keyset paged. */
@Injectable()
export class ListMcpServersUseCase {
  constructor(@Inject(MCP_SERVER_REPOSITORY) private readonly servers: McpServerRepository) {}

  async execute(caller: Caller, query: { limit?: QueryValue; cursor?: QueryValue }): Promise<McpServerListDto> {
    const page = parseKeysetQuery(query, { defaultLimit: 50 });
    const rows = toPage(await this.servers.list(caller.orgId, page), page.limit);
    return { data: rows.items.map(toMcpServerDto), next_cursor: rows.nextCursor };
  }
}
