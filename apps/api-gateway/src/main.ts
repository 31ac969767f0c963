import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { loadConfigOrExit, requireDistributed } from '@igw/config';
import { ApiGatewayModule, gatewaySettings, BootstrapOrgUseCase, GATEWAY_MIGRATIONS, GATEWAY_SCHEMA, GatewayConfig, serveConsole } from '@igw/api-gateway';
import { SERVICE_ROUTES, STATS_PART_PATHS } from '@igw/contracts';
import {
  GATEWAY_API_DESCRIPTION,
  MetricsModule,
  ProbesController,
  READINESS_CHECKS,
  closeHttpApp,
  createHttpApp,
  createLogger,
  HttpStatsPartClient,
  InternalServiceClient,
  serviceUrls,
  type ReadinessCheck,
} from '@igw/http';
import { defined, VERSION } from '@igw/kernel';
import { cacheCheck, createEventBus, createRedis, databaseCheck, eventsCheck, openServiceInfra, recordsCheck, runApp, serviceReadiness } from '@igw/runtime';

/** Distributed mode: the public edge in front of the services. */
runApp('api-gateway', async () => {
  const config = requireDistributed(loadConfigOrExit(GatewayConfig, { GATEWAY_MODE: 'distributed', ...process.env }), 'api-gateway', ['INTERNAL_AUTH_TOKEN']);
  const logger = createLogger(config.LOG_LEVEL, 'api-gateway', config.LOG_FORMAT);
  const bus = createEventBus(config, 'api-gateway', logger);
  const redis = createRedis(config, logger);
  const infra = await openServiceInfra(config, { schema: GATEWAY_SCHEMA, migrations: GATEWAY_MIGRATIONS, bus, logger });
  const env = config as unknown as Record<string, string | undefined>;
  const services = Object.fromEntries(SERVICE_ROUTES.map((r) => [r.service, defined(env[r.urlSetting], r.urlSetting)]));
  // Each service's own readiness; a service that serves but reports `warn` (records set aside…) passes it on with its numbers.
  const serviceChecks: ReadinessCheck[] = Object.entries(services).map(([name, url]) => ({
    name: name.replace(/-/g, '_'),
    check: () => serviceReadiness(url),
  }));
  const core = [databaseCheck(infra.db), eventsCheck(bus), cacheCheck(redis)];
  // GET /v1/stats: each service's counts over its internal route.
  const statsParts = (
    [
      ['intent-evaluator', STATS_PART_PATHS.evaluations],
      ['decision-proxy', STATS_PART_PATHS.decisions],
      ['approvals', STATS_PART_PATHS.approvals],
    ] as const
  ).map(([name, path]) => new HttpStatsPartClient(new InternalServiceClient(services[name] as string, config.INTERNAL_AUTH_TOKEN, { service: name }), path));

  @Module({
    imports: [
      MetricsModule,
      ApiGatewayModule.register({
        settings: gatewaySettings(config),
        db: infra.db,
        notifier: infra.notifier,
        redis,
        healthChecks: [...core, recordsCheck([infra]), ...serviceChecks],
        upstreams: { services, internalToken: config.INTERNAL_AUTH_TOKEN },
        stats: { parts: statsParts },
      }),
    ],
    controllers: [ProbesController],
    providers: [{ provide: READINESS_CHECKS, useValue: core }],
  })
  class GatewayAppModule {}

  const app = await createHttpApp(GatewayAppModule, {
    name: 'api-gateway',
    logger,
    openApi: {
      title: 'Intent Gateway',
      version: VERSION,
      description: GATEWAY_API_DESCRIPTION,
      mergeFrom: Object.values(services).map((s) => serviceUrls(s)[0] as string),
    },
  });
  await serveConsole(app, { logger, redirectRoot: false });
  await bus.start();
  infra.relay.start();
  await app.get(BootstrapOrgUseCase).execute();
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT, mode: 'distributed', services }, 'api-gateway listening');

  return async () => {
    await closeHttpApp(app);
    await infra.relay.stop();
    await bus.stop();
    await Promise.all(statsParts.map((p) => p.close()));
    redis?.disconnect();
    await infra.db.close();
  };
});
