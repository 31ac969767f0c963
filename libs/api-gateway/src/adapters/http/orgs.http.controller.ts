import { Body, Controller, HttpCode, Inject, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateOrgDto, CreatedOrgDto, ErrorDto, OrgDto, UpdateOrgDto } from '@igw/contracts';
import { Public, type RequestLike } from '@igw/http';
import { invalidRequest } from '@igw/kernel';
import { CreateOrgUseCase } from '../../application/use-cases/create-org.use-case';
import { UpdateOrgUseCase } from '../../application/use-cases/update-org.use-case';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../application/ports/gateway-settings';
import { assertPlatformAdmin } from './platform-admin';

@ApiTags('orgs')
@Controller('v1/orgs')
export class OrgsHttpController {
  constructor(
    private readonly createOrg: CreateOrgUseCase,
    private readonly updateOrg: UpdateOrgUseCase,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  @Public()
  @Post()
  @ApiOperation({ summary: 'Create an org and its first admin key (PLATFORM_ADMIN_KEY).' })
  @ApiResponse({ status: 201, type: CreatedOrgDto })
  @ApiResponse({ status: 401, type: ErrorDto })
  async create(@Req() req: RequestLike, @Body() body: CreateOrgDto): Promise<CreatedOrgDto> {
    assertPlatformAdmin(req, this.settings.platformAdminKey);
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

  @Public()
  @Patch(':id')
  @HttpCode(200)
  @ApiOperation({ summary: "Change an org's per-key rate limit (PLATFORM_ADMIN_KEY); null restores the default." })
  @ApiResponse({ status: 200, type: OrgDto })
  async update(@Req() req: RequestLike, @Param('id') id: string, @Body() body: UpdateOrgDto): Promise<OrgDto> {
    assertPlatformAdmin(req, this.settings.platformAdminKey);
    if (body.rate_limit === undefined)
      throw invalidRequest('rate_limit is required', [{ path: 'rate_limit', message: 'rate_limit is required (null restores the default)' }]);
    return this.updateOrg.execute(id, body.rate_limit ? { requestsPerSecond: body.rate_limit.requests_per_second, burst: body.rate_limit.burst } : null);
  }
}
