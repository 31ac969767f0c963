import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateOrgDto, CreatedOrgDto, ErrorDto, OrgDto, UpdateOrgDto } from '@igw/contracts';
import { ApiJsonBody, ApiNotFound, ApiOp, PlatformAdminOnly } from '@igw/http';
import { invalidRequest } from '@igw/kernel';
import { CreateOrgUseCase } from '../../application/use-cases/create-org.use-case';
import { UpdateOrgUseCase } from '../../application/use-cases/update-org.use-case';
import { CREATE_ORG_EXAMPLES, CREATED_ORG_EXAMPLE, UPDATE_ORG_EXAMPLES, UPDATED_ORG_EXAMPLE } from './api-gateway.examples';

const BURST_BELOW_RATE = {
  code: 'invalid_request',
  message: 'rate_limit.burst must be at least rate_limit.requests_per_second',
  details: [{ path: 'rate_limit.burst', message: 'must be at least requests_per_second' }],
};
@ApiTags('orgs')
@Controller('v1/orgs')
export class OrgsHttpController {
  constructor(
    private readonly createOrg: CreateOrgUseCase,
    private readonly updateOrg: UpdateOrgUseCase,
  ) {}

  @PlatformAdminOnly()
  @Post()
  @ApiOp({
    id: 'createOrg',
    summary: 'Create an org and its first admin key.',
    description:
      "For the platform operator: authenticate with the deployment's PLATFORM_ADMIN_KEY, not an org API key. The answer holds the new org and an `admin` API key of it; the key's secret (`api_key.key`) is in this answer only, so store it now. " +
      "Without `rate_limit` the org's keys get the deployment default, which `org.rate_limit` shows. Not idempotent: each call creates another org, names need not be unique. " +
      'No org API key rate limit applies to this route. 403 when the deployment has no PLATFORM_ADMIN_KEY: org management is then disabled.',
  })
  @ApiJsonBody(CreateOrgDto, CREATE_ORG_EXAMPLES)
  @ApiResponse({ status: 201, type: CreatedOrgDto, description: 'The new org and its admin key, with the secret shown once.', example: CREATED_ORG_EXAMPLE })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description: '`invalid_request`: `details` names each offending field.',
    examples: {
      burst: { summary: 'A burst below the sustained rate', value: BURST_BELOW_RATE },
      field: {
        summary: 'A field missing or out of range',
        value: { code: 'invalid_request', message: 'name is required', details: [{ path: 'name', message: 'name is required' }] },
      },
    },
  })
  async create(@Body() body: CreateOrgDto): Promise<CreatedOrgDto> {
    if (body.rate_limit && body.rate_limit.burst < body.rate_limit.requests_per_second) {
      throw invalidRequest('rate_limit.burst must be at least rate_limit.requests_per_second', [
        { path: 'rate_limit.burst', message: 'must be at least requests_per_second' },
      ]);
    }
    return this.createOrg.execute({
      name: body.name,
      rateLimit: body.rate_limit ? { requestsPerSecond: body.rate_limit.requests_per_second, burst: body.rate_limit.burst } : undefined,
    });
  }

  @PlatformAdminOnly()
  @Patch(':id')
  @HttpCode(200)
  @ApiOp({
    id: 'updateOrg',
    summary: "Set or reset an org's per-key rate limit.",
    description:
      'For the platform operator (PLATFORM_ADMIN_KEY). `rate_limit` is required: an object sets the limit every API key of the org gets, `null` restores the deployment default (the answer then shows the default). ' +
      'Every replica applies it from the next request on. Idempotent: sending the same limit again changes nothing. 403 when the deployment has no PLATFORM_ADMIN_KEY.',
  })
  @ApiJsonBody(UpdateOrgDto, UPDATE_ORG_EXAMPLES)
  @ApiResponse({ status: 200, type: OrgDto, description: 'The org with the rate limit its keys now get.', example: UPDATED_ORG_EXAMPLE })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description: '`invalid_request`: `rate_limit` missing, or a limit out of range; `details` names each offending field.',
    examples: {
      missing: {
        summary: 'No rate_limit',
        value: {
          code: 'invalid_request',
          message: 'rate_limit is required',
          details: [{ path: 'rate_limit', message: 'rate_limit is required (null restores the default)' }],
        },
      },
      burst: { summary: 'A burst below the sustained rate', value: BURST_BELOW_RATE },
    },
  })
  @ApiNotFound('org')
  async update(@Param('id') id: string, @Body() body: UpdateOrgDto): Promise<OrgDto> {
    if (body.rate_limit === undefined)
      throw invalidRequest('rate_limit is required', [{ path: 'rate_limit', message: 'rate_limit is required (null restores the default)' }]);
    return this.updateOrg.execute(id, body.rate_limit ? { requestsPerSecond: body.rate_limit.requests_per_second, burst: body.rate_limit.burst } : null);
  }
}
