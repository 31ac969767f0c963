import 'reflect-metadata';
import { loadConfigOrExit } from '@igw/config';
import { createLogger } from '@igw/http';
import { ReadModelTracker } from '@igw/events';
import { cacheCheck, createEventBus, createRedis, createVersionBoard, databaseCheck, eventsCheck, KeyEncryption, openServiceInfra, recordsCheck, parseKek, runApp, serveService, StartupError } from '@igw/runtime';
import { parseRetrySchedule, WEBHOOK_DISPATCHER_MIGRATIONS, WEBHOOK_DISPATCHER_SCHEMA, WebhookDispatcherConfig, WebhookDispatcherModule } from '@igw/webhook-dispatcher';

/**
 * Distributed mode: `/v1/webhooks*` behind the gateway, the fan-out of every public event from
 * Kafka (one consumer group for all replicas) and the delivery worker (every replica; deliveries
 * are leased in PostgreSQL with SKIP LOCKED).
 */
runApp('webhook-dispatcher', async () => {
  const config = loadConfigOrExit(WebhookDispatcherConfig, { GATEWAY_MODE: 'distributed', PORT: '8086', ...process.env });
  if (config.GATEWAY_MODE !== 'distributed') throw new StartupError('the webhook-dispatcher app runs in distributed mode; `npm start` runs embedded mode');
  const kek = parseKek(config.WEBHOOK_KEK!);
  if (!kek) throw new StartupError('WEBHOOK_KEK must be 32 bytes as base64 or hex');
  let retryScheduleS: number[] | undefined;
  try {
    retryScheduleS = config.WEBHOOK_RETRY_SCHEDULE ? parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE) : undefined;
  } catch (err) {
    throw new StartupError(`WEBHOOK_RETRY_SCHEDULE: ${(err as Error).message}`);
  }

  const logger = createLogger(config.LOG_LEVEL, 'webhook-dispatcher');
  const bus = createEventBus(config, 'webhook-dispatcher', logger);
  const infra = await openServiceInfra(config, { schema: WEBHOOK_DISPATCHER_SCHEMA, migrations: WEBHOOK_DISPATCHER_MIGRATIONS, bus, logger });
  const redis = createRedis(config, logger);
  const versionBoard = createVersionBoard(config, redis);
  // Ready once the subscriptions of every org with an active webhook are loaded.
  const readModels = new ReadModelTracker();

  return serveService({
    name: 'webhook-dispatcher',
    config,
    logger,
    bus,
    infra,
    imports: [
      WebhookDispatcherModule.register({
        db: infra.db,
        deadLetters: infra.deadLetters,
        readModels,
        bus,
        versionBoard,
        sealer: new KeyEncryption(kek),
        allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === 'true',
        ...(config.WEBHOOK_CONSUMER_GROUP ? { consumerGroup: config.WEBHOOK_CONSUMER_GROUP } : {}),
        ...(config.WEBHOOK_TIMEOUT_MS ? { timeoutMs: Number(config.WEBHOOK_TIMEOUT_MS) } : {}),
        ...(retryScheduleS ? { retryScheduleS } : {}),
      }),
    ],
    checks: [databaseCheck(infra.db), eventsCheck(bus), ...(redis ? [cacheCheck(redis)] : []), readModels.check(), recordsCheck([infra])],
    redis,
    redisWarning: 'redis is not reachable yet; events wait in Kafka until it is',
  });
});
