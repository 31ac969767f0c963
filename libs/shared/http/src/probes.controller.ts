import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from './caller';
import { processMetrics } from './metrics/prom-metrics';

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/**
 * What a check found: `ok`; `down` (the process cannot serve: not ready, health 503); or `warn`
 * (it serves, but something needs an operator — records set aside, events waiting long — shown in
 * health without taking the process out of rotation). `detail` says what, in numbers.
 */
export interface CheckResult {
  status: CheckStatus;
  detail?: Record<string, unknown>;
}
export type CheckStatus = 'ok' | 'down' | 'warn';

export interface ReadinessCheck {
  name: string;
  /** true/false are `ok`/`down`. */
  check(): Promise<boolean | CheckResult>;
}

export interface CheckReport {
  checks: Record<string, CheckStatus>;
  /** Per check, when it said more than its status. */
  details: Record<string, Record<string, unknown>>;
  /** No check is `down`. */
  ready: boolean;
}

/** Kubernetes probes, no auth: liveness is the process; readiness is its dependencies. Beside them, `/metrics`: the
 * process's Prometheus registry (text exposition), no auth either. */
@ApiExcludeController()
@Controller()
export class ProbesController {
  constructor(@Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = []) {}

  @Public()
  @Get('livez')
  livez() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await runChecks(this.checks);
    reply.status(report.ready ? 200 : 503);
    return { status: report.ready ? 'ok' : 'unavailable', checks: report.checks, ...(Object.keys(report.details).length ? { details: report.details } : {}) };
  }

  @Public()
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply) {
    const metrics = processMetrics();
    reply.type(metrics.contentType);
    return metrics.exposition();
  }
}

/** Runs the checks at once, each bounded by `timeoutMs` (a check that does not answer is `down`). */
export async function runChecks(checks: ReadinessCheck[], timeoutMs = 1500): Promise<CheckReport> {
  const results = await Promise.all(
    checks.map(async (c) => {
      const raw = await Promise.race([c.check().catch(() => false), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref())]);
      const result: CheckResult = typeof raw === 'boolean' ? { status: raw ? 'ok' : 'down' } : raw;
      return [c.name, result] as const;
    }),
  );
  const report: CheckReport = { checks: {}, details: {}, ready: true };
  for (const [name, result] of results) {
    report.checks[name] = result.status;
    if (result.detail) report.details[name] = result.detail;
    if (result.status === 'down') report.ready = false;
  }
  return report;
}
