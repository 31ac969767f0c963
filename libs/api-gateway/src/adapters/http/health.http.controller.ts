import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HealthDto } from '@igw/contracts';
import { runChecks, type ReadinessCheck } from '@igw/http';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../application/ports/gateway-settings';

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

@ApiTags('health')
@Controller('v1/health')
export class HealthHttpController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Mode, version and dependency checks (any key).',
    description:
      '503 when a dependency is down. A check may also be `warn`: the gateway serves, but an operator should look (records the store refused and set aside, events waiting long to be published); `details` gives the numbers. `status` is `degraded` whenever a check is not `ok`.',
  })
  @ApiResponse({ status: 200, type: HealthDto })
  @ApiResponse({ status: 503, type: HealthDto })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    const report = await runChecks(this.checks);
    const ok = Object.values(report.checks).every((c) => c === 'ok');
    reply.status(report.ready ? 200 : 503);
    return {
      status: ok ? 'ok' : 'degraded',
      version: this.settings.version,
      mode: this.settings.mode,
      checks: report.checks,
      ...(Object.keys(report.details).length ? { details: report.details } : {}),
    };
  }
}
