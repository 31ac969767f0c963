import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto, McpServerDto, McpServerListDto, RegisterMcpServerDto } from '@igw/contracts';
import { CurrentCaller, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DeleteMcpServerUseCase } from '../../application/use-cases/delete-mcp-server.use-case';
import { GetMcpServerUseCase } from '../../application/use-cases/get-mcp-server.use-case';
import { ListMcpServersUseCase } from '../../application/use-cases/list-mcp-servers.use-case';
import { RegisterMcpServerUseCase } from '../../application/use-cases/register-mcp-server.use-case';

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
  @ApiOperation({ summary: 'Register an upstream MCP server; its headers are sealed and never shown again (only their names).' })
  @ApiResponse({ status: 201, type: McpServerDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request: name, url (shape, or a private/loopback/link-local destination), headers' })
  @ApiResponse({ status: 409, type: ErrorDto, description: 'name_conflict: the org already has a server of that name' })
  create(@CurrentCaller() caller: Caller, @Body() body: RegisterMcpServerDto): Promise<McpServerDto> {
    return this.register.execute(caller, body);
  }

  @Get()
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, type: String })
  @ApiResponse({ status: 200, type: McpServerListDto })
  list(@CurrentCaller() caller: Caller, @Query('limit') limit?: string | string[], @Query('cursor') cursor?: string | string[]): Promise<McpServerListDto> {
    return this.listServers.execute(caller, { limit, cursor });
  }

  @Get(':id')
  @ApiResponse({ status: 200, type: McpServerDto })
  @ApiResponse({ status: 404, type: ErrorDto })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<McpServerDto> {
    return this.getServer.execute(caller, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Remove an upstream; `{base}/mcp/{name}` answers as unknown from then on.' })
  @ApiResponse({ status: 204 })
  @ApiResponse({ status: 404, type: ErrorDto })
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.deleteServer.execute(caller, id);
  }
}
