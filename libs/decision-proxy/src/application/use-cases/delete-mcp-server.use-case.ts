import { Inject, Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import { MCP_SERVER_REPOSITORY, type McpServerRepository } from '../ports/mcp-server.repository.port';

/** `DELETE /v1/mcp-servers/{id}` (policy_write): another org's id is 404 like an unknown one. */
@Injectable()
export class DeleteMcpServerUseCase {
  constructor(@Inject(MCP_SERVER_REPOSITORY) private readonly servers: McpServerRepository) {}

  async execute(caller: Caller, id: string): Promise<void> {
    if (!(await this.servers.delete(caller.orgId, id))) throw notFound('mcp server');
  }
}
