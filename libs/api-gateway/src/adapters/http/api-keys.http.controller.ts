import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyDto, ApiKeyListDto, CreateApiKeyDto, CreatedApiKeyDto, ErrorDto } from '@igw/contracts';
import { ApiJsonBody, ApiOp, CurrentCaller, RequireScope, ApiNotFound } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { CreateApiKeyUseCase } from '../../application/use-cases/create-api-key.use-case';
import { ListApiKeysUseCase } from '../../application/use-cases/list-api-keys.use-case';
import { RevokeApiKeyUseCase } from '../../application/use-cases/revoke-api-key.use-case';
import { API_KEY_LIST_EXAMPLE, CREATE_API_KEY_EXAMPLES, CREATED_API_KEY_EXAMPLE, REVOKED_API_KEY_EXAMPLE } from './api-gateway.examples';

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
  @ApiOp({
    id: 'createApiKey',
    summary: 'Create an API key; the secret is in this answer only.',
    description:
      'A new key of your org with one scope: `read_only` reads, `policy_write` also changes policy and dispenses mandates, `admin` also manages keys and webhooks. Only a hash of the secret is stored: `key` is shown in this answer and never again, `prefix` (its first 12 characters) identifies it later. ' +
      'The key works at once. Not idempotent: each call creates another key, names need not be unique. Needs admin.',
  })
  @ApiJsonBody(CreateApiKeyDto, CREATE_API_KEY_EXAMPLES)
  @ApiResponse({ status: 201, type: CreatedApiKeyDto, description: 'The new key, with its secret `key` shown once.', example: CREATED_API_KEY_EXAMPLE })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description: '`invalid_request`: `details` names each offending field.',
    examples: {
      scope: {
        summary: 'An unknown scope',
        value: {
          code: 'invalid_request',
          message: 'scope must be one of read_only, policy_write, admin',
          details: [{ path: 'scope', message: 'scope must be one of read_only, policy_write, admin' }],
        },
      },
    },
  })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.createKey.execute(caller, body);
  }

  @Get()
  @ApiOp({
    id: 'listApiKeys',
    summary: "List the org's API keys (never their secrets).",
    description: 'Every key of your org, revoked ones included (`revoked_at` set), oldest first, in one answer (not paged). Needs admin.',
  })
  @ApiResponse({ status: 200, type: ApiKeyListDto, description: 'All the keys of your org.', example: API_KEY_LIST_EXAMPLE })
  list(@CurrentCaller() caller: Caller): Promise<ApiKeyListDto> {
    return this.listKeys.execute(caller);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOp({
    id: 'revokeApiKey',
    summary: 'Revoke an API key; it is refused from its next request on.',
    description:
      'Every replica refuses the key (401) from its next request on. Idempotent: revoking a revoked key answers it unchanged, with its first `revoked_at`. A revoked key cannot be restored; create another. Nothing stops an admin key from revoking itself, or the last admin key of the org. Needs admin.',
  })
  @ApiResponse({ status: 200, type: ApiKeyDto, description: 'The key, revoked.', example: REVOKED_API_KEY_EXAMPLE })
  @ApiNotFound('api key')
  revoke(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ApiKeyDto> {
    return this.revokeKey.execute(caller, id);
  }
}
