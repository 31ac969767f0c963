import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BaseConfig, loadConfigOrExit } from '@igw/config';
import { CALLER_RESOLVER, CallerGuard, InternalCallerResolver, ProbesController, READINESS_CHECKS, createHttpApp, createLogger } from '@igw/http';
import { VERSION } from '@igw/kernel';
import { APPROVALS_MIGRATIONS, APPROVALS_SCHEMA, ApprovalsModule } from '@igw/approvals';
import { createEventBus, databaseCheck, eventsCheck, openServiceInfra, runApp, StartupError } from '@igw/runtime';

/**
 * Distributed mode: approval requests behind the gateway (`/v1/approvals*`), plus the internal
 * routes the evaluator and the decision proxy call with the internal token (`/internal/approvals*`).
 */
runApp('approvals', async () => {
  const config = loadConfigOrExit(BaseConfig, { GATEWAY_MODE: 'distributed', PORT: '8085', ...process.env });
  if (config.GATEWAY_MODE !== 'distributed') throw new StartupError('the approvals app runs in distributed mode; `npm start` runs embedded mode');
  const logger = createLogger(config.LOG_LEVEL, 'approvals');
  const bus = createEventBus(config, 'approvals', logger);
  const infra = await openServiceInfra(config, { schema: APPROVALS_SCHEMA, migrations: APPROVALS_MIGRATIONS, bus, logger });
  const checks = [databaseCheck(infra.db), eventsCheck(bus)];

  @Module({
    imports: [ApprovalsModule.register({ db: infra.db, notifier: infra.notifier, internalRoutes: true })],
    controllers: [ProbesController],
    providers: [
      { provide: READINESS_CHECKS, useValue: checks },
      { provide: CALLER_RESOLVER, useValue: new InternalCallerResolver(config.INTERNAL_AUTH_TOKEN!) },
      { provide: APP_GUARD, useClass: CallerGuard },
    ],
  })
  class ApprovalsAppModule {}

  const app = await createHttpApp(ApprovalsAppModule, {
    name: 'approvals',
    logger,
    openApi: { title: 'Intent Gateway — approvals', version: VERSION },
  });
  await bus.start();
  infra.relay.start();
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT }, 'approvals listening');

  return async () => {
    await app.close();
    await infra.relay.stop();
    await bus.stop();
    await infra.db.close();
  };
});
