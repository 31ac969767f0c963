import type { EventEnvelope } from '@igw/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { DependencyUnavailableError } from '@igw/kernel';
import type { EventBus, Subscription, TransientErrorTest } from '../../ports/event-bus.port';
import { KafkaConsumerGroup, STOP_STEP_TIMEOUT_MS, type ConsumerGroupContext } from './kafka-consumer-group';
import { KafkaHealthProbe } from './kafka-health';
import { kafkaLogCreator, type KafkaEventBusLogger } from './kafka-log';
import { KafkaPublisher } from './kafka-publisher';
import { kafkaSecurity, withTimeout, type KafkaClientSecurity } from './kafka-support';
import { KafkaTopics } from './kafka-topics';

export type { KafkaEventBusLogger } from './kafka-log';

export interface KafkaEventBusOptions {
  brokers: string[];
  /** TLS and SASL for managed Kafka services. */
  ssl?: KafkaClientSecurity['ssl'];
  sasl?: KafkaClientSecurity['sasl'];
  clientId: string;
  logger?: KafkaEventBusLogger;
  /** Upper bound for one `publish`, retries included. Default 10 s. */
  publishTimeoutMs?: number;
  /** First pause before an event whose handler threw is delivered again; doubles per failure up to 30 s. Default 250 ms. */
  retryBackoffMs?: number;
  /** Consumer session timeout. Default 10 s: a restarted consumer rejoins its group within that. */
  sessionTimeoutMs?: number;
  /** An outage: the event is retried until it passes, never set aside (default: DependencyUnavailableError). */
  isTransient?: TransientErrorTest;
  /** Attempts after which an event failing for another reason goes to its subscription's `onPoison`. Default 5. */
  poisonAfterAttempts?: number;
}

/**
 * EventBus over Kafka (kafkajs). The outbox relay is the only producer (KafkaPublisher); each
 * consumer group (KafkaConsumerGroup) commits an offset only after its handler succeeded.
 * This class wires them together and owns the lifecycle.
 */
export class KafkaEventBus implements EventBus {
  private readonly topics: KafkaTopics;
  private readonly publisher: KafkaPublisher;
  private readonly probe: KafkaHealthProbe;
  private readonly groups = new Map<string, KafkaConsumerGroup>();
  private readonly groupContext: ConsumerGroupContext;
  private started = false;
  private stopped = false;

  constructor(options: KafkaEventBusOptions) {
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...kafkaSecurity(options),
      logLevel: options.logger ? logLevel.WARN : logLevel.NOTHING,
      logCreator: kafkaLogCreator(options.logger),
      connectionTimeout: 3000,
      requestTimeout: 10_000,
      // ~7.5 s of retries (300 ms doubling, capped at 3 s): inside the publish budget.
      retry: { initialRetryTime: 300, maxRetryTime: 3000, retries: 5 },
    });
    this.topics = new KafkaTopics(kafka);
    this.publisher = new KafkaPublisher(kafka, this.topics, options.publishTimeoutMs ?? 10_000);
    this.probe = new KafkaHealthProbe(options.clientId, options.brokers, options);
    this.groupContext = {
      kafka,
      logger: options.logger,
      retryBackoffMs: options.retryBackoffMs ?? 250,
      sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
      isTransient: options.isTransient ?? ((err) => err instanceof DependencyUnavailableError),
      poisonAfterAttempts: Math.max(1, options.poisonAfterAttempts ?? 5),
      ensureTopics: (topics) => this.topics.ensure(topics),
      healthy: () => this.healthy(),
      stopped: () => this.stopped,
    };
  }

  async publish(events: EventEnvelope[], key?: (e: EventEnvelope) => string): Promise<void> {
    if (this.stopped) throw new Error('KafkaEventBus is stopped');
    if (events.length === 0) return;
    await this.publisher.publish(events, key);
  }

  async subscribe(subscription: Subscription): Promise<void> {
    if (this.stopped) throw new Error('KafkaEventBus is stopped');
    let group = this.groups.get(subscription.group);
    if (group?.consumer || group?.starting) {
      // kafkajs cannot add topics to a running consumer.
      throw new Error(`consumer group ${subscription.group} is already running; subscribe before start()`);
    }
    if (!group) {
      group = new KafkaConsumerGroup(subscription.group, this.groupContext);
      this.groups.set(subscription.group, group);
    }
    group.add(subscription);
    if (this.started) await group.start();
  }

  async start(): Promise<void> {
    if (this.stopped) throw new Error('KafkaEventBus is stopped');
    this.started = true;
    await Promise.all([...this.groups.values()].filter((g) => !g.consumer).map((g) => g.start()));
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Shutdown must finish even when the broker is gone and a disconnect would keep retrying.
    const quietly = (p: Promise<unknown> | undefined) =>
      p ? withTimeout(p, STOP_STEP_TIMEOUT_MS, () => 'stop step timed out').catch(() => undefined) : undefined;
    await Promise.all([...this.groups.values()].map((g) => g.stop(quietly)));
    await quietly(this.publisher.drained());
    await Promise.all([quietly(this.publisher.disconnect()), quietly(this.topics.disconnect()), quietly(this.probe.disconnect())]);
  }

  /**
   * Per consumer group of this process: events in its topics not yet committed by the group — the
   * brokers' high-water offsets minus the group's committed offsets, summed over partitions. A
   * partition the group has never committed counts from its low-water mark when the group reads
   * from the beginning, and as 0 when it starts at the latest offset (where it started is known
   * to its consumer, not to the brokers). Read from the brokers.
   */
  async consumerLag(): Promise<Array<{ group: string; lag: number }>> {
    if (this.stopped || this.groups.size === 0) return [];
    const admin = await this.topics.connectedAdmin();
    const topicOffsets = new Map<string, Promise<Array<{ partition: number; high: string; low: string }>>>();
    const offsetsOf = (topic: string) => {
      let offsets = topicOffsets.get(topic);
      if (!offsets) topicOffsets.set(topic, (offsets = admin.fetchTopicOffsets(topic)));
      return offsets;
    };
    return Promise.all(
      [...this.groups.values()].map(async (group) => {
        const topics = group.topics;
        const committed = await admin.fetchOffsets({ groupId: group.name, topics });
        let lag = 0;
        for (const { topic, partitions } of committed) {
          const marks = new Map((await offsetsOf(topic)).map((p) => [p.partition, p]));
          for (const { partition, offset } of partitions) {
            const mark = marks.get(partition);
            if (!mark) continue;
            if (Number(offset) < 0 && !group.readsFromBeginning) continue;
            const from = Number(offset) >= 0 ? Number(offset) : Number(mark.low);
            lag += Math.max(0, Number(mark.high) - from);
          }
        }
        return { group: group.name, lag };
      }),
    );
  }

  async healthy(): Promise<boolean> {
    if (this.stopped) return false;
    return this.probe.healthy();
  }
}
