import 'reflect-metadata';
import { BaseConfig, loadConfigOrExit, requireDistributed } from '@igw/config';
import { POLICY_REGISTRY_MIGRATIONS, POLICY_REGISTRY_SCHEMA, PolicyRegistryModule } from '@igw/policy-registry';
import { openService, runApp, serveService, serviceChecks } from '@igw/runtime';

/** Distributed mode: intentions, purposes and intent cards, behind the gateway. */
runApp('policy-registry', async () => {
  const config = requireDistributed(loadConfigOrExit(BaseConfig, { GATEWAY_MODE: 'distributed', PORT: '8081', ...process.env }), 'policy-registry');
  // Readers check the org counters here on every call; the registry advances them after each commit.
  const svc = await openService(config, 'policy-registry', { schema: POLICY_REGISTRY_SCHEMA, migrations: POLICY_REGISTRY_MIGRATIONS });
  const { infra, versionBoard } = svc;
  return serveService({
    ...svc,
    name: 'policy-registry',
    config,
    imports: [PolicyRegistryModule.register({ db: infra.db, notifier: infra.notifier, versionBoard, internalRoutes: true })],
    checks: serviceChecks(svc),
    // Changes answered before Redis is up would leave the board behind (readers then catch up from the events).
    redisWarning: 'redis not ready: changes answer 503 until it is (the version board cannot be advanced)',
  });
});
