import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from './caller';

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
}

/** Kubernetes probes, no auth: liveness is the process; readiness is its dependencies. */
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
    const results = await runChecks(this.checks);
    const ready = Object.values(results).every((v) => v === 'ok');
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks: results };
  }
}

export async function runChecks(checks: ReadinessCheck[], timeoutMs = 1500): Promise<Record<string, 'ok' | 'down'>> {
  const entries = await Promise.all(
    checks.map(async (c) => {
      const ok = await Promise.race([c.check().catch(() => false), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref())]);
      return [c.name, ok ? 'ok' : 'down'] as const;
    }),
  );
  return Object.fromEntries(entries);
}
