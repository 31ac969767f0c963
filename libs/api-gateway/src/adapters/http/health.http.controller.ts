import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HealthDto } from '@igw/contracts';
import { ApiOp, runChecks, type ReadinessCheck } from '@igw/http';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../application/ports/gateway-settings';
import { HEALTH_DOWN_EXAMPLE, HEALTH_OK_EXAMPLE, HEALTH_WARN_EXAMPLE } from './api-gateway.examples';

export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

@ApiTags('health')
@Controller('v1/health')
export class HealthHttpController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  @Get()
  @ApiOp({
    id: 'getHealth',
    summary: 'Mode, version and the state of every dependency.',
    description:
      'Any API key may call it (read_only is enough). Each check answers within 1.5 s or counts as `down`. 200 while every dependency answers; a check may still be `warn`: the gateway serves, but an operator should look (records the store refused and set aside, events waiting over 60 s to be published, a replica of a service down); `details` gives the numbers. ' +
      '`status` is `degraded` whenever a check is not `ok`. 503 with the same body when a dependency is `down`. ' +
      'In distributed mode each service (`policy_registry`, `decision_proxy`…) is one check. A 503 `unavailable` error instead of this body means the key could not even be checked (the database is down and the key was not cached).',
  })
  @ApiResponse({
    status: 200,
    type: HealthDto,
    description: 'Every dependency answers; `status` is `degraded` when a check warns.',
    examples: {
      ok: { summary: 'All ok', value: HEALTH_OK_EXAMPLE },
      warn: { summary: 'Serving, with records set aside for an operator', value: HEALTH_WARN_EXAMPLE },
    },
  })
  @ApiResponse({
    status: 503,
    type: HealthDto,
    description: 'A dependency is down (its check is `down`); calls that need it fail closed.',
    example: HEALTH_DOWN_EXAMPLE,
  })
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
