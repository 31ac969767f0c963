import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto, McpServerDto, McpServerListDto, RegisterMcpServerDto } from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiOp, ApiPagedList, CurrentCaller, RequireScope, ResourceRead, ApiNotFound } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteMcpServerUseCase } from '../../application/use-cases/delete-mcp-server.use-case';
import { GetMcpServerUseCase } from '../../application/use-cases/get-mcp-server.use-case';
import { ListMcpServersUseCase } from '../../application/use-cases/list-mcp-servers.use-case';
import { RegisterMcpServerUseCase } from '../../application/use-cases/register-mcp-server.use-case';
import { MCP_SERVER_EXAMPLE, MCP_SERVER_LIST_EXAMPLE, REGISTER_MCP_SERVER_EXAMPLES, REGISTER_MCP_SERVER_INVALID_EXAMPLES } from './mcp-servers.examples';

/** The use cases this controller drives: the module provides them with it. */
export const MCP_SERVERS_USE_CASES = [RegisterMcpServerUseCase, ListMcpServersUseCase, GetMcpServerUseCase, DeleteMcpServerUseCase];

/** DESIGN 6.13: the org's upstream MCP servers, reached by agents at `{base}/mcp/{name}`. */
@ApiTags('mcp-servers')
@Controller('v1/mcp-servers')
export class McpServersHttpController {
  constructor(
    private readonly register: RegisterMcpServerUseCase,
    private readonly listServers: ListMcpServersUseCase,
    private readonly getServer: GetMcpServerUseCase,
    private readonly deleteServer: DeleteMcpServerUseCase,
  ) {}

  @Post()
  @RequireScope('policy_write')
  @ApiOp({
    id: 'createMcpServer',
    summary: 'Register an upstream MCP server, reached by agents at `{base}/mcp/{name}`.',
    description:
      'Every `tools/call` through `{base}/mcp/{name}` is decided before it is forwarded to `url`; `name` is also the audience a mandate for it must name. The URL must be http(s), without credentials or fragment, and its host must resolve to public addresses only (unless the deployment allows private upstreams). `headers` are sent upstream on every request, sealed at rest, and never shown again: only their names come back. A name the org already uses is a 409 (remove the server to re-register it). Needs policy_write.',
  })
  @ApiJsonBody(RegisterMcpServerDto, REGISTER_MCP_SERVER_EXAMPLES)
  @ApiResponse({ status: 201, type: McpServerDto, description: 'The registered server; `{base}/mcp/{name}` serves it at once.', example: MCP_SERVER_EXAMPLE })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description:
      '`invalid_request`: `name`, `url` (its shape, or a host that does not resolve or is not public) or `headers` (names, reserved headers, sizes), named in `details`.',
    examples: REGISTER_MCP_SERVER_INVALID_EXAMPLES,
  })
  @ApiErrors({ 409: { code: 'name_conflict', message: 'an MCP server named crm is already registered' } })
  create(@CurrentCaller() caller: Caller, @Body() body: RegisterMcpServerDto): Promise<McpServerDto> {
    return this.register.execute(caller, body);
  }

  @Get()
  @ApiOp({
    id: 'listMcpServers',
    summary: "List the org's upstream MCP servers, newest first.",
    description: 'Header values are never shown, only their names. Keyset-paged: pass `next_cursor` as `cursor` until it is null.',
  })
  @ApiPagedList(McpServerListDto, 50, MCP_SERVER_LIST_EXAMPLE)
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string | string[], @Query('cursor') cursor?: string | string[]): Promise<McpServerListDto> {
    return this.listServers.execute(caller, { limit, cursor });
  }

  @ResourceRead(McpServerDto, MCP_SERVER_EXAMPLE, 'mcp server')
  @ApiOp({
    id: 'getMcpServer',
    summary: 'One upstream MCP server.',
    description: "Header values are never shown, only their names. Another org's id is a 404, as an unknown one is.",
  })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<McpServerDto> {
    return this.getServer.execute(caller, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('policy_write')
  @ApiOp({
    id: 'removeMcpServer',
    summary: 'Remove an upstream MCP server.',
    description:
      'Takes effect at once on every replica: `{base}/mcp/{name}` answers as unknown from the next request, and the name is free to register again. Its sealed headers are deleted with it. Removing it again is a 404. Needs policy_write.',
  })
  @ApiResponse({ status: 204, description: 'Removed.' })
  @ApiNotFound('mcp server')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteServer.execute(caller, id);
  }
}
