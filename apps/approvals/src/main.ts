import 'reflect-metadata';
import { POLICY_REGISTRY_API } from '@igw/contracts';
import { loadConfigOrExit, requireDistributed } from '@igw/config';
import { createLogger, HttpPolicyRegistryClient, InternalServiceClient } from '@igw/http';
import { APPROVALS_MIGRATIONS, APPROVALS_SCHEMA, ApprovalsConfig, ApprovalsModule } from '@igw/approvals';
import { createEventBus, databaseCheck, eventsCheck, openServiceInfra, runApp, serveService } from '@igw/runtime';

/**
 * Distributed mode: approval requests behind the gateway (`/v1/approvals*`), plus the internal
 * routes the evaluator and the decision proxy call with the internal token (`/internal/approvals*`).
 * Deciding with `remember` / `intent_label` reads and teaches the registry over its internal routes.
 */
runApp('approvals', async () => {
  const config = requireDistributed(loadConfigOrExit(ApprovalsConfig, { GATEWAY_MODE: 'distributed', PORT: '8085', ...process.env }), 'approvals', [
    'INTERNAL_AUTH_TOKEN',
    'POLICY_REGISTRY_URL',
  ]);
  const logger = createLogger(config.LOG_LEVEL, 'approvals', config.LOG_FORMAT);
  const bus = createEventBus(config, 'approvals', logger);
  const infra = await openServiceInfra(config, { schema: APPROVALS_SCHEMA, migrations: APPROVALS_MIGRATIONS, bus, logger });
  const registryHttp = new InternalServiceClient(config.POLICY_REGISTRY_URL, config.INTERNAL_AUTH_TOKEN, { service: 'policy-registry' });
  return serveService({
    name: 'approvals',
    config,
    logger,
    bus,
    infra,
    imports: [
      ApprovalsModule.register({
        db: infra.db,
        notifier: infra.notifier,
        internalRoutes: true,
        providers: [{ provide: POLICY_REGISTRY_API, useValue: new HttpPolicyRegistryClient(registryHttp, 'svc:approvals') }],
      }),
    ],
    checks: [databaseCheck(infra.db), eventsCheck(bus)],
    release: () => registryHttp.close(),
  });
});
