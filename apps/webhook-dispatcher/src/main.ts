import 'reflect-metadata';
import { loadConfigOrExit, requireDistributed } from '@igw/config';
import { ReadModelTracker } from '@igw/events';
import { processMetrics } from '@igw/http';
import { openService, runApp, serveService, serviceChecks } from '@igw/runtime';
import {
  WEBHOOK_DISPATCHER_MIGRATIONS,
  WEBHOOK_DISPATCHER_SCHEMA,
  WebhookDispatcherConfig,
  webhookDispatcherSettings,
  WebhookDispatcherModule,
} from '@igw/webhook-dispatcher';

/**
 * Distributed mode: `/v1/webhooks*` behind the gateway, the fan-out of every public event from
 * Kafka (one consumer group for all replicas) and the delivery worker (every replica; deliveries
 * are leased in PostgreSQL with SKIP LOCKED).
 */
runApp('webhook-dispatcher', async () => {
  const config = requireDistributed(
    loadConfigOrExit(WebhookDispatcherConfig, { GATEWAY_MODE: 'distributed', PORT: '8086', ...process.env }),
    'webhook-dispatcher',
  );
  const settings = webhookDispatcherSettings(config);

  const svc = await openService(config, 'webhook-dispatcher', { schema: WEBHOOK_DISPATCHER_SCHEMA, migrations: WEBHOOK_DISPATCHER_MIGRATIONS });
  const { bus, infra, versionBoard } = svc;
  // Ready once the subscriptions of every org with an active webhook are loaded.
  const readModels = new ReadModelTracker(processMetrics());

  return serveService({
    ...svc,
    name: 'webhook-dispatcher',
    config,
    imports: [
      WebhookDispatcherModule.register({
        db: infra.db,
        deadLetters: infra.deadLetters,
        readModels,
        bus,
        versionBoard,
        ...settings,
      }),
    ],
    checks: serviceChecks(svc, readModels),
    redisWarning: 'redis is not reachable yet; events wait in Kafka until it is',
  });
});
