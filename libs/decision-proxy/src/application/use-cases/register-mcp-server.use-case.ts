import { Inject, Injectable } from '@nestjs/common';
import type { McpServerDto, RegisterMcpServerDto } from '@igw/contracts';
import { CLOCK, conflict, newId, type Caller, type Clock } from '@igw/kernel';
import { MCP_SERVER_NAME, mcpServerUrlProblem } from '../../domain';
import { HEADER_SEALER, sealHeaders, type HeaderSealer } from '../mcp-header-sealing';
import { MCP_SERVER_REPOSITORY, type McpServerRepository, type StoredMcpServer } from '../ports/mcp-server.repository.port';
import { UPSTREAM_DESTINATION, type UpstreamDestinationCheck } from '../ports/upstream-destination.port';
import { badField, toMcpServerDto } from './mcp-server-views';

/**
 * `POST /v1/mcp-servers` (policy_write, DESIGN 6.13): checks the URL and its destination, seals the
 * headers (only their names are ever shown again); a name the org already uses is 409.
 */
@Injectable()
export class RegisterMcpServerUseCase {
  constructor(
    @Inject(MCP_SERVER_REPOSITORY) private readonly servers: McpServerRepository,
    @Inject(UPSTREAM_DESTINATION) private readonly destinations: UpstreamDestinationCheck,
    @Inject(HEADER_SEALER) private readonly sealer: HeaderSealer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, body: RegisterMcpServerDto): Promise<McpServerDto> {
    if (!MCP_SERVER_NAME.test(body.name)) throw badField('name', 'name must match ^[a-z0-9][a-z0-9_-]{0,62}$');
    const shape = mcpServerUrlProblem(body.url);
    if (shape) throw badField('url', shape);
    const destination = await this.destinations.problem(body.url);
    if (destination) throw badField('url', destination);
    const id = newId('mcs');
    const headers = body.headers ?? {};
    const headerNames = Object.keys(headers);
    const server: StoredMcpServer = {
      id,
      orgId: caller.orgId,
      name: body.name,
      url: body.url,
      headerNames,
      shadow: body.shadow === true,
      createdAt: this.clock.now(),
      headersSealed: headerNames.length > 0 ? sealHeaders(this.sealer, id, headers) : null,
      kekId: headerNames.length > 0 ? this.sealer.kekId : null,
    };
    if ((await this.servers.create(server)) === 'name_taken') {
      throw conflict('name_conflict', `an MCP server named ${body.name} is already registered`);
    }
    return toMcpServerDto(server);
  }
}
