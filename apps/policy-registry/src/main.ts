import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BaseConfig, loadConfigOrExit } from '@igw/config';
import { CALLER_RESOLVER, CallerGuard, InternalCallerResolver, ProbesController, READINESS_CHECKS, createHttpApp, createLogger } from '@igw/http';
import { VERSION } from '@igw/kernel';
import { POLICY_REGISTRY_MIGRATIONS, POLICY_REGISTRY_SCHEMA, PolicyRegistryModule } from '@igw/policy-registry';
import { cacheCheck, createEventBus, createRedis, createVersionBoard, databaseCheck, eventsCheck, openServiceInfra, redisReady, runApp, StartupError } from '@igw/runtime';

/** Distributed mode: intentions, purposes and intent cards, behind the gateway. */
runApp('policy-registry', async () => {
  const config = loadConfigOrExit(BaseConfig, { GATEWAY_MODE: 'distributed', PORT: '8081', ...process.env });
  if (config.GATEWAY_MODE !== 'distributed') throw new StartupError('the policy-registry app runs in distributed mode; `npm start` runs embedded mode');
  const logger = createLogger(config.LOG_LEVEL, 'policy-registry');
  const bus = createEventBus(config, 'policy-registry', logger);
  const infra = await openServiceInfra(config, { schema: POLICY_REGISTRY_SCHEMA, migrations: POLICY_REGISTRY_MIGRATIONS, bus, logger });
  // Readers check the org counters here on every call; the registry advances them after each commit.
  const redis = createRedis(config, logger);
  const versionBoard = createVersionBoard(config, redis);
  const checks = [databaseCheck(infra.db), eventsCheck(bus), ...(redis ? [cacheCheck(redis)] : [])];

  @Module({
    imports: [PolicyRegistryModule.register({ db: infra.db, notifier: infra.notifier, versionBoard, internalRoutes: true })],
    controllers: [ProbesController],
    providers: [
      { provide: READINESS_CHECKS, useValue: checks },
      { provide: CALLER_RESOLVER, useValue: new InternalCallerResolver(config.INTERNAL_AUTH_TOKEN!) },
      { provide: APP_GUARD, useClass: CallerGuard },
    ],
  })
  class PolicyRegistryAppModule {}

  const app = await createHttpApp(PolicyRegistryAppModule, {
    name: 'policy-registry',
    logger,
    openApi: { title: 'Intent Gateway — policy-registry', version: VERSION },
  });
  await bus.start();
  infra.relay.start();
  // Changes answered before Redis is up would leave the board behind (readers then catch up from the events).
  if (redis && !(await redisReady(redis))) logger.warn('redis not ready: version board writes fail until it is; changes still succeed');
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT }, 'policy-registry listening');

  return async () => {
    await app.close();
    await infra.relay.stop();
    await bus.stop();
    await infra.db.close();
    redis?.disconnect();
  };
});
