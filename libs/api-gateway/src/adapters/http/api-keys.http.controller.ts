import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyDto, ApiKeyListDto, CreateApiKeyDto, CreatedApiKeyDto, ErrorDto } from '@igw/contracts';
import { CurrentCaller, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { CreateApiKeyUseCase } from '../../application/use-cases/create-api-key.use-case';
import { ListApiKeysUseCase } from '../../application/use-cases/list-api-keys.use-case';
import { RevokeApiKeyUseCase } from '../../application/use-cases/revoke-api-key.use-case';

@ApiTags('api-keys')
@Controller('v1/api-keys')
@RequireScope('admin')
export class ApiKeysHttpController {
  constructor(
    private readonly createKey: CreateApiKeyUseCase,
    private readonly listKeys: ListApiKeysUseCase,
    private readonly revokeKey: RevokeApiKeyUseCase,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key; the secret is in this answer only.' })
  @ApiResponse({ status: 201, type: CreatedApiKeyDto })
  @ApiResponse({ status: 403, type: ErrorDto })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.createKey.execute(caller, body);
  }

  @Get()
  @ApiOperation({ summary: "List the org's API keys (never their secrets)." })
  @ApiResponse({ status: 200, type: ApiKeyListDto })
  list(@CurrentCaller() caller: Caller): Promise<ApiKeyListDto> {
    return this.listKeys.execute(caller);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key; it is refused from its next request on.' })
  @ApiResponse({ status: 200, type: ApiKeyDto })
  @ApiResponse({ status: 404, type: ErrorDto })
  revoke(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ApiKeyDto> {
    return this.revokeKey.execute(caller, id);
  }
}
