import { Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { STATS_WINDOWS, StatsDto } from '@igw/contracts';
import { ApiErrors, ApiOp, CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { GetStatsUseCase } from '../../application/use-cases/get-stats.use-case';
import { STATS_EXAMPLE } from './api-gateway.examples';

@ApiTags('stats')
@Controller('v1/stats')
export class StatsHttpController {
  constructor(private readonly getStats: GetStatsUseCase) {}

  @Get()
  @ApiOp({
    id: 'getStats',
    summary: "The org's traffic at a glance (the console overview).",
    description:
      'Legacy-path evaluations per bucket by outcome, mandate-path decisions per bucket by kind, the approval backlog and the age of its oldest request, ' +
      'the share the gateway decides without a human, the tools refused most and the intentions and intent cards used most. ' +
      '`window` is `1h` (1-minute buckets, the default), `24h` (15-minute buckets) or `7d` (hourly buckets). Counts are kept per bucket as calls are recorded, ' +
      'so the cost of this route does not grow with traffic. Any key of the org may read; only its own org is counted.',
  })
  @ApiQuery({ name: 'window', required: false, enum: STATS_WINDOWS })
  @ApiResponse({ status: 200, type: StatsDto, description: 'The overview.', example: STATS_EXAMPLE })
  @ApiErrors({
    400: { code: 'invalid_request', message: 'window must be one of 1h, 24h, 7d' },
  })
  stats(@CurrentCaller() caller: Caller, @Query('window') window?: string): Promise<StatsDto> {
    return this.getStats.execute(caller, { window });
  }
}
