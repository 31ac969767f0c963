import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HealthDto } from '@igw/contracts';
import { runChecks, type ReadinessCheck } from '@igw/http';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../application/ports/gateway-settings';

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

@ApiTags('health')
@ApiBearerAuth()
@Controller('v1/health')
export class HealthHttpController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Mode, version and dependency checks (any key). 503 when a dependency is down.' })
  @ApiResponse({ status: 200, type: HealthDto })
  @ApiResponse({ status: 503, type: HealthDto })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    const checks = await runChecks(this.checks);
    const ok = Object.values(checks).every((c) => c === 'ok');
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'degraded', version: this.settings.version, mode: this.settings.mode, checks };
  }
}
