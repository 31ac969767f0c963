import { Controller, Get, Inject, Query, type Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { StatsPartApi, StatsPartDto } from '@igw/contracts';
import { invalidRequest, parseStatsWindow, type Caller } from '@igw/kernel';
import { CurrentCaller } from './caller';

/**
 * `GET {path}?window=&at=` (distributed mode): one service's part of `GET /v1/stats` for the
 * caller's org, read through the `StatsPartApi` under `token`. The gateway passes its own clock
 * reading as `at`, so every part buckets alike. Not in the public document; the gateway never
 * forwards `/internal/*`.
 */
export function internalStatsController(path: string, token: symbol): Type<unknown> {
  @ApiExcludeController()
  @Controller(path.replace(/^\//, ''))
  class InternalStatsHttpController {
    constructor(@Inject(token) private readonly part: StatsPartApi) {}

    @Get()
    read(@CurrentCaller() caller: Caller, @Query('window') window?: string, @Query('at') at?: string): Promise<StatsPartDto> {
      const when = at === undefined ? new Date() : new Date(at);
      if (Number.isNaN(when.getTime())) throw invalidRequest('at must be an ISO 8601 date-time', [{ path: 'at', message: 'must be an ISO 8601 date-time' }]);
      return this.part.read(caller.orgId, parseStatsWindow(window), when);
    }
  }
  return InternalStatsHttpController;
}
