import { Module, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { BaseConfig } from '@igw/config';
import type { EventBus } from '@igw/events';
import {
  CALLER_RESOLVER,
  CallerGuard,
  closeHttpApp,
  createHttpApp,
  InternalCallerResolver,
  MetricsModule,
  ProbesController,
  READINESS_CHECKS,
  type ReadinessCheck,
} from '@igw/http';
import { defined, VERSION } from '@igw/kernel';
import { redisReady, type ServiceInfra } from './service-infra';

export interface ServiceAppOptions {
  /** The app's name: logs, OpenAPI title. */
  name: string;
  config: BaseConfig;
  logger: Logger;
  bus: EventBus;
  infra: ServiceInfra;
  /** The service module(s), registered. */
  imports: NonNullable<ModuleMetadata['imports']>;
  /** Readiness beyond the database and the bus (e.g. Redis). */
  checks: ReadinessCheck[];
  /** Waited for (briefly) before listening; closed on shutdown. */
  redis?: Redis;
  /** Said when Redis is not reachable at start (the app starts anyway; readiness reports it). */
  redisWarning?: string;
  /** Released after the app closed (HTTP client pools…). */
  release?: () => Promise<void>;
}

/**
 * A distributed-mode service process: the service module behind the internal caller resolver
 * (the gateway's token and caller headers), probes, the bus and the outbox relay started, then
 * listening. Resolves to the shutdown that closes everything in reverse order.
 */
export async function serveService(options: ServiceAppOptions): Promise<() => Promise<void>> {
  const { config, logger, bus, infra, redis } = options;

  @Module({
    imports: [MetricsModule, ...options.imports],
    controllers: [ProbesController],
    providers: [
      { provide: READINESS_CHECKS, useValue: options.checks },
      { provide: CALLER_RESOLVER, useValue: new InternalCallerResolver(defined(config.INTERNAL_AUTH_TOKEN, 'INTERNAL_AUTH_TOKEN')) },
      { provide: APP_GUARD, useClass: CallerGuard },
    ],
  })
  class ServiceAppModule {}

  const app = await createHttpApp(ServiceAppModule, { name: options.name, logger, openApi: { title: `Intent Gateway — ${options.name}`, version: VERSION } });
  await bus.start();
  infra.relay.start();
  if (redis && !(await redisReady(redis))) logger.warn(options.redisWarning ?? 'redis is not reachable yet');
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT }, `${options.name} listening`);

  return async () => {
    // Closing the app first lets modules drain what they hold (e.g. queued intent events).
    await closeHttpApp(app);
    await infra.relay.stop();
    await bus.stop();
    await options.release?.();
    redis?.disconnect();
    await infra.db.close();
  };
}
