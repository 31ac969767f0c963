import { join } from 'node:path';
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { EVENT_BUS, VERSION_BOARD, type ReadModelHostOptions, type ReadModelTracker } from '@igw/events';
import { DEAD_LETTERS, SqlDeadLetters, type ServiceDatabase } from '@igw/persistence';
import { DEFAULT_RETRY_SCHEDULE_S } from './domain';
import { DELIVERY_REPOSITORY, WEBHOOK_REPOSITORY } from './application/ports/webhook.repository.port';
import { WEBHOOK_SENDER } from './application/ports/webhook-sender.port';
import { SECRET_SEALER, type SecretSealer } from './application/webhook-secrets';
import { WebhookSubscriptions } from './application/read-model/webhook-subscriptions.read-model';
import { DELIVERY_SETTINGS, DeliverDueUseCase, type DeliverySettings } from './application/use-cases/deliver-due.use-case';
import { DELIVERY_NUDGE, FanOutEventUseCase } from './application/use-cases/fan-out-event.use-case';
import { DELIVERY_WORKER_OPTIONS, DeliveryWorker } from './adapters/delivery/delivery.worker';
import { HttpWebhookSender } from './adapters/delivery/http-webhook.sender';
import { WEBHOOK_EVENTS_GROUP, WebhookEventsConsumer } from './adapters/events/webhook-events.consumer';
import { WEBHOOKS_USE_CASES, WebhooksHttpController } from './adapters/http/webhooks.http.controller';
import { SqlDeliveryRepository, SqlWebhookRepository } from './adapters/sql/sql-webhook.repository';

export const WEBHOOK_DISPATCHER_SCHEMA = 'webhook_dispatcher';
export const WEBHOOK_DISPATCHER_MIGRATIONS = join(__dirname, '../prisma/migrations');

/** `bus` delivers every service's public events; each org's subscription counter is advanced and read on `versionBoard`. */
export interface WebhookDispatcherModuleOptions extends ReadModelHostOptions {
  /** The dispatcher's database, already migrated. */
  db: ServiceDatabase;
  /** Seals signing secrets at rest (KeyEncryption under the KEK). */
  sealer: SecretSealer;
  /** One group for all replicas: each event is fanned out once. */
  consumerGroup?: string;
  allowPrivate?: boolean;
  timeoutMs?: number;
  retryScheduleS?: readonly number[];
  /** Where events the fan-out keeps failing on are set aside (default: the schema's own, unlogged). */
  deadLetters?: SqlDeadLetters;
  /** Longest wait between delivery rounds (default 1000 ms). */
  pollMs?: number;
  clock?: Clock;
}

/**
 * Webhooks (DESIGN 6.11): `/v1/webhooks*`, the fan-out of every public event into persisted
 * deliveries, and the worker that signs and sends them with retries.
 */
const READ_MODELS = Symbol('WEBHOOK_READ_MODELS');

@Module({})
export class WebhookDispatcherModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(WEBHOOK_SENDER) private readonly sender: HttpWebhookSender,
    @Inject(READ_MODELS) private readonly tracker: ReadModelTracker | null,
    private readonly subscriptions: WebhookSubscriptions,
  ) {}

  static register(options: WebhookDispatcherModuleOptions): DynamicModule {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const settings: DeliverySettings = {
      retryScheduleS: options.retryScheduleS ?? DEFAULT_RETRY_SCHEDULE_S,
      batch: 100,
      maxInFlight: 500,
      leaseMs: timeoutMs + 30_000,
    };
    const providers: Provider[] = [
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: EVENT_BUS, useValue: options.bus },
      { provide: WEBHOOK_EVENTS_GROUP, useValue: options.consumerGroup ?? 'webhook-dispatcher' },
      { provide: SECRET_SEALER, useValue: options.sealer },
      { provide: VERSION_BOARD, useValue: options.versionBoard },
      { provide: READ_MODELS, useValue: options.readModels ?? null },
      { provide: DEAD_LETTERS, useValue: options.deadLetters ?? new SqlDeadLetters(options.db) },
      { provide: WEBHOOK_REPOSITORY, useValue: new SqlWebhookRepository(options.db, options.versionBoard) },
      { provide: DELIVERY_REPOSITORY, useValue: new SqlDeliveryRepository(options.db, options.versionBoard) },
      WebhookSubscriptions,
      { provide: WEBHOOK_SENDER, useValue: new HttpWebhookSender({ allowPrivate: options.allowPrivate === true, timeoutMs }) },
      { provide: DELIVERY_SETTINGS, useValue: settings },
      { provide: DELIVERY_WORKER_OPTIONS, useValue: { pollMs: options.pollMs ?? 1000, enabled: true, maxInFlightHint: settings.maxInFlight ?? 500 } },
      DeliverDueUseCase,
      DeliveryWorker,
      { provide: DELIVERY_NUDGE, useExisting: DeliveryWorker },
      FanOutEventUseCase,
      WebhookEventsConsumer,
      ...WEBHOOKS_USE_CASES,
    ];
    return { module: WebhookDispatcherModule, controllers: [WebhooksHttpController], providers, exports: [DeliveryWorker] };
  }

  /** Loads the subscriptions of every org with an active webhook; the process reports ready once they are in. */
  onApplicationBootstrap(): void {
    this.tracker?.track(this.subscriptions.model);
    void this.subscriptions.model.warmUntilReady(new Logger('WebhookDispatcher'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close().catch(() => undefined);
  }
}
