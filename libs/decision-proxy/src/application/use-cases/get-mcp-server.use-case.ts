import { Inject, Injectable } from '@nestjs/common';
import type { McpServerDto } from '@igw/contracts';
import { foundOr404, type Caller } from '@igw/kernel';
import { MCP_SERVER_REPOSITORY, type McpServerRepository } from '../ports/mcp-server.repository.port';
import { toMcpServerDto } from './mcp-server-views';

/** `GET /v1/mcp-servers/{id}`: another org's id is 404 like an unknown one. */
@Injectable()
export class GetMcpServerUseCase {
  constructor(@Inject(MCP_SERVER_REPOSITORY) private readonly servers: McpServerRepository) {}

  async execute(caller: Caller, id: string): Promise<McpServerDto> {
    return toMcpServerDto(foundOr404(await this.servers.find(caller.orgId, id), 'mcp server'));
  }
}
