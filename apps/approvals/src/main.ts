import 'reflect-metadata';
import { BaseConfig, loadConfigOrExit, requireDistributed } from '@igw/config';
import { createLogger } from '@igw/http';
import { APPROVALS_MIGRATIONS, APPROVALS_SCHEMA, ApprovalsModule } from '@igw/approvals';
import { createEventBus, databaseCheck, eventsCheck, openServiceInfra, runApp, serveService } from '@igw/runtime';

/**
 * Distributed mode: approval requests behind the gateway (`/v1/approvals*`), plus the internal
 * routes the evaluator and the decision proxy call with the internal token (`/internal/approvals*`).
 */
runApp('approvals', async () => {
  const config = requireDistributed(loadConfigOrExit(BaseConfig, { GATEWAY_MODE: 'distributed', PORT: '8085', ...process.env }), 'approvals');
  const logger = createLogger(config.LOG_LEVEL, 'approvals');
  const bus = createEventBus(config, 'approvals', logger);
  const infra = await openServiceInfra(config, { schema: APPROVALS_SCHEMA, migrations: APPROVALS_MIGRATIONS, bus, logger });
  return serveService({
    name: 'approvals',
    config,
    logger,
    bus,
    infra,
    imports: [ApprovalsModule.register({ db: infra.db, notifier: infra.notifier, internalRoutes: true })],
    checks: [databaseCheck(infra.db), eventsCheck(bus)],
  });
});
