import type { EventEnvelope } from '@igw/contracts';
import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type KafkaMessage,
  type LogEntry,
  type Message,
  type Producer,
} from 'kafkajs';
import { DependencyUnavailableError } from '@igw/kernel';
import type { EventBus, EventHandler, Subscription, TransientErrorTest } from '../../ports/event-bus.port';
import { errorMessage, HandlerFailure, withTimeout } from './kafka-support';

/** pino-compatible subset. */
export interface KafkaEventBusLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface KafkaEventBusOptions {
  brokers: string[];
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

interface PendingRetry {
  offset: string;
  attempts: number;
}

interface Group {
  name: string;
  /** topic → handlers of every subscription of this group to that topic. */
  handlers: Map<string, EventHandler[]>;
  /** A new group starts at the earliest offsets unless every subscription of it asked for `latest`. */
  fromBeginning: boolean;
  /** Events of one partition handled at once: the smallest any subscription of the group asked for. */
  concurrency: number;
  consumer?: Consumer;
  /** `topic:partition` → the offset that failed and must be handled before anything after it. */
  retries: Map<string, PendingRetry>;
  timers: Set<NodeJS.Timeout>;
  starting?: Promise<void>;
  /** Last sign of life of the running consumer (a fetch or a heartbeat), for the stall watchdog. */
  lastAlive: number;
}

const MAX_RETRY_BACKOFF_MS = 30_000;
const HEALTH_CACHE_MS = 1000;
const HEALTH_TIMEOUT_MS = 1500;
const LOG_REPEAT_MS = 30_000;
/**
 * A consumer that has neither fetched nor sent a heartbeat for this long while the broker answers
 * is stuck (kafkajs can stay wedged after a broker restart, e.g. kafkajs#267): it is replaced.
 * Healthy consumers fetch every `maxWaitTimeInMs` (1 s), so this never fires for them.
 */
const STALL_MS = 45_000;
const STALL_CHECK_MS = 10_000;
const STOP_STEP_TIMEOUT_MS = 5000;

/**
 * EventBus over Kafka (kafkajs). The outbox relay is the only producer: one idempotent producer,
 * acks=all, keyed by org (or the relay's key) so an org's events stay ordered in one partition.
 * Consumers commit an offset only after its handler succeeded; a handler that throws gets the same
 * event again after a backoff and nothing behind it in that partition is handled meanwhile.
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  /** Separate client without retries so health probes answer fast. */
  private readonly probeKafka: Kafka;
  private readonly producer: Producer;
  private producerReady?: Promise<void>;
  /** Publishes run one at a time: an idempotent producer must not interleave sequence numbers. */
  private sendChain: Promise<unknown> = Promise.resolve();
  private admin?: Admin;
  private probe?: Admin;
  private health?: { at: number; ok: boolean };
  private healthCheck?: Promise<boolean>;
  private readonly knownTopics = new Set<string>();
  private topicChain: Promise<unknown> = Promise.resolve();
  private readonly logSeen = new Map<string, number>();
  private readonly groups = new Map<string, Group>();
  private started = false;
  private stopped = false;
  private readonly publishTimeoutMs: number;
  private readonly retryBackoffMs: number;
  private readonly sessionTimeoutMs: number;
  private readonly isTransient: TransientErrorTest;
  private readonly poisonAfterAttempts: number;

  constructor(private readonly options: KafkaEventBusOptions) {
    this.isTransient = options.isTransient ?? ((err) => err instanceof DependencyUnavailableError);
    this.poisonAfterAttempts = Math.max(1, options.poisonAfterAttempts ?? 5);
    this.publishTimeoutMs = options.publishTimeoutMs ?? 10_000;
    this.retryBackoffMs = options.retryBackoffMs ?? 250;
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? 10_000;
    const logCreator = () => (entry: LogEntry) => this.kafkaLog(entry);
    const level = options.logger ? logLevel.WARN : logLevel.NOTHING;
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: level,
      logCreator,
      connectionTimeout: 3000,
      requestTimeout: 10_000,
      // ~7.5 s of retries (300 ms doubling, capped at 3 s): inside the publish budget.
      retry: { initialRetryTime: 300, maxRetryTime: 3000, retries: 5 },
    });
    this.probeKafka = new Kafka({
      clientId: `${options.clientId}-health`,
      brokers: options.brokers,
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1000,
      requestTimeout: HEALTH_TIMEOUT_MS,
      retry: { retries: 0 },
    });
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async publish(events: EventEnvelope[], key?: (e: EventEnvelope) => string): Promise<void> {
    if (this.stopped) throw new Error('KafkaEventBus is stopped');
    if (events.length === 0) return;
    const byTopic = new Map<string, Message[]>();
    for (const e of events) {
      const messages = byTopic.get(e.type) ?? [];
      messages.push({ key: key ? key(e) : e.org_id, value: JSON.stringify(e), headers: { 'event-type': e.type } });
      byTopic.set(e.type, messages);
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));

    const send = this.sendChain.then(async () => {
      await this.connectProducer();
      // Brokers in production often refuse to auto-create topics: create ours explicitly.
      await this.ensureTopics([...byTopic.keys()]);
      await this.producer.sendBatch({ acks: -1, topicMessages });
    });
    // If the budget runs out while kafkajs is still retrying, the send may yet land: a duplicate
    // at worst, which consumers absorb by event id. The outbox keeps the rows and tries again.
    const bounded = withTimeout(send, this.publishTimeoutMs, () => `Kafka publish of ${events.length} event(s) timed out after ${this.publishTimeoutMs} ms`);
    // The chain survives a failed send, and moves on after the budget even if kafkajs is still
    // retrying an old one, so one stuck send cannot hold every later publish hostage.
    this.sendChain = bounded.catch(() => undefined);
    await bounded;
  }

  async subscribe(subscription: Subscription): Promise<void> {
    if (this.stopped) throw new Error('KafkaEventBus is stopped');
    let group = this.groups.get(subscription.group);
    if (group?.consumer || group?.starting) {
      // kafkajs cannot add topics to a running consumer.
      throw new Error(`consumer group ${subscription.group} is already running; subscribe before start()`);
    }
    if (!group) {
      group = { name: subscription.group, handlers: new Map(), retries: new Map(), timers: new Set(), lastAlive: Date.now(), fromBeginning: false, concurrency: Number.POSITIVE_INFINITY };
      this.groups.set(subscription.group, group);
    }
    if ((subscription.startAt ?? 'beginning') === 'beginning') group.fromBeginning = true;
    const wanted = subscription.concurrency ?? 1;
    group.concurrency = Math.min(group.concurrency, Number.isFinite(wanted) ? Math.max(1, Math.floor(wanted)) : 1);
    const { handler, onPoison } = subscription;
    const wrapped: EventHandler = async (event) => {
      try {
        await handler(event);
      } catch (err) {
        throw new HandlerFailure(err, event, onPoison);
      }
    };
    for (const topic of subscription.topics) {
      const handlers = group.handlers.get(topic) ?? [];
      handlers.push(wrapped);
      group.handlers.set(topic, handlers);
    }
    if (this.started) await this.startGroup(group);
  }

  async start(): Promise<void> {
    if (this.stopped) throw new Error('KafkaEventBus is stopped');
    this.started = true;
    await Promise.all([...this.groups.values()].filter((g) => !g.consumer).map((g) => this.startGroup(g)));
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Shutdown must finish even when the broker is gone and a disconnect would keep retrying.
    const quietly = (p: Promise<unknown> | undefined) =>
      p ? withTimeout(p, STOP_STEP_TIMEOUT_MS, () => 'stop step timed out').catch(() => undefined) : undefined;
    await Promise.all(
      [...this.groups.values()].map(async (g) => {
        for (const t of g.timers) clearTimeout(t);
        g.timers.clear();
        await quietly(g.starting);
        await quietly(g.consumer?.disconnect());
      }),
    );
    await quietly(this.sendChain);
    await Promise.all([quietly(this.producer.disconnect()), quietly(this.admin?.disconnect()), quietly(this.probe?.disconnect())]);
  }

  async healthy(): Promise<boolean> {
    if (this.stopped) return false;
    if (this.health && Date.now() - this.health.at < HEALTH_CACHE_MS) return this.health.ok;
    this.healthCheck ??= this.checkHealth()
      .then((ok) => {
        this.health = { at: Date.now(), ok };
        return ok;
      })
      .finally(() => (this.healthCheck = undefined));
    return this.healthCheck;
  }

  private async checkHealth(): Promise<boolean> {
    try {
      await withTimeout(
        (async () => {
          if (!this.probe) {
            this.probe = this.probeKafka.admin();
            await this.probe.connect();
          }
          await this.probe.describeCluster();
        })(),
        HEALTH_TIMEOUT_MS,
        () => 'health probe timed out',
      );
      return true;
    } catch {
      // A fresh admin next time: kafkajs does not always recover a client whose broker vanished.
      const probe = this.probe;
      this.probe = undefined;
      void probe?.disconnect().catch(() => undefined);
      return false;
    }
  }

  private connectProducer(): Promise<void> {
    this.producerReady ??= this.producer.connect().catch((err: unknown) => {
      this.producerReady = undefined;
      throw err;
    });
    return this.producerReady;
  }

  /** Creates missing topics up front: subscribing to a topic that does not exist yet fails in kafkajs. */
  private ensureTopics(topics: string[]): Promise<void> {
    // One at a time, so groups starting together do not race each other to create a topic.
    const run = this.topicChain.then(() => this.createMissingTopics(topics));
    this.topicChain = run.catch(() => undefined);
    return run;
  }

  private async createMissingTopics(topics: string[]): Promise<void> {
    const missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    const existing = new Set(await this.admin.listTopics());
    const toCreate = missing.filter((t) => !existing.has(t));
    if (toCreate.length > 0) {
      try {
        // Broker defaults for partitions and replication.
        await this.admin.createTopics({ topics: toCreate.map((topic) => ({ topic })), waitForLeaders: true });
      } catch (err) {
        // Another instance may have created them meanwhile; only a topic still missing is an error.
        const now = new Set(await this.admin.listTopics());
        if (toCreate.some((t) => !now.has(t))) throw err;
      }
    }
    for (const t of missing) this.knownTopics.add(t);
  }

  private startGroup(group: Group): Promise<void> {
    group.starting ??= this.runGroup(group).finally(() => (group.starting = undefined));
    return group.starting;
  }

  private async runGroup(group: Group): Promise<void> {
    const topics = [...group.handlers.keys()];
    await this.ensureTopics(topics);
    if (this.stopped) return;
    const consumer = this.kafka.consumer({
      groupId: group.name,
      sessionTimeout: this.sessionTimeoutMs,
      rebalanceTimeout: Math.max(this.sessionTimeoutMs, 15_000),
      heartbeatInterval: Math.max(500, Math.floor(this.sessionTimeoutMs / 5)),
      allowAutoTopicCreation: true,
      // The fetch long-poll bounds both stop() (it waits for the fetch in flight) and how soon a
      // paused partition is fetched again for a redelivery; kafkajs' 5 s default made both slow.
      maxWaitTimeInMs: 1000,
      retry: {
        // On a crash kafkajs restarts the consumer itself; this only paces reconnects.
        initialRetryTime: 300,
        maxRetryTime: 5000,
        retries: 10,
        // kafkajs' disconnect() does not cancel a restart already under way (broker down at
        // stop()), which would keep reconnecting forever; this check does.
        restartOnFailure: async () => !this.stopped,
      },
    });
    // After a rebalance the committed offset is the truth again.
    consumer.on(consumer.events.GROUP_JOIN, () => group.retries.clear());
    const alive = () => (group.lastAlive = Date.now());
    for (const e of [consumer.events.FETCH_START, consumer.events.HEARTBEAT, consumer.events.GROUP_JOIN]) consumer.on(e, alive);
    alive();
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopped || group.consumer !== consumer) return;
      // kafkajs gave up on this consumer (a non-retriable error): start a fresh one so delivery
      // never silently stops.
      group.consumer = undefined;
      this.restartLater(group, payload.error);
    });
    group.consumer = consumer;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: group.fromBeginning });
      await consumer.run({
        // Only resolved (handled) offsets are ever committed: at batch end, and every second
        // during a long batch.
        autoCommit: true,
        autoCommitInterval: 1000,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 1,
        eachBatch: (payload) => this.handleBatch(group, consumer, payload),
      });
      this.watchForStall(group, consumer);
    } catch (err) {
      group.consumer = undefined;
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
  }

  private watchForStall(group: Group, consumer: Consumer): void {
    const timer = setInterval(() => {
      if (this.stopped || group.consumer !== consumer) {
        clearInterval(timer);
        group.timers.delete(timer);
        return;
      }
      if (Date.now() - group.lastAlive < STALL_MS) return;
      void this.healthy().then(async (reachable) => {
        // While the broker is down kafkajs is reconnecting on its own; only a stall with a reachable broker is ours to fix.
        if (!reachable || this.stopped || group.consumer !== consumer) return;
        clearInterval(timer);
        group.timers.delete(timer);
        group.consumer = undefined;
        await withTimeout(consumer.disconnect(), STOP_STEP_TIMEOUT_MS, () => 'disconnect timed out').catch(() => undefined);
        this.restartLater(group, new Error(`no fetch or heartbeat for ${Math.round((Date.now() - group.lastAlive) / 1000)} s while the broker answers`));
      });
    }, STALL_CHECK_MS);
    timer.unref();
    group.timers.add(timer);
  }

  private restartLater(group: Group, err: unknown): void {
    if (this.stopped) return;
    this.options.logger?.error({ group: group.name, err: errorMessage(err) }, 'Kafka consumer is not running; restarting it in 5 s');
    const timer = setTimeout(() => {
      group.timers.delete(timer);
      if (!this.stopped) void this.startGroup(group).catch((e: unknown) => this.restartLater(group, e));
    }, 5000);
    group.timers.add(timer);
  }

  private async handleBatch(group: Group, consumer: Consumer, payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    const tp = `${topic}:${partition}`;
    const messages = batch.messages;
    for (let i = 0; i < messages.length; ) {
      if (!isRunning() || isStale() || this.stopped) return;
      const pending = group.retries.get(tp);
      // Never run past an event that still has to be redelivered (a batch fetched before the seek).
      if (pending && BigInt(messages[i]!.offset) > BigInt(pending.offset)) return;
      // While an event is being redelivered, one at a time; otherwise up to the group's concurrency.
      const chunk = messages.slice(i, i + (pending ? 1 : group.concurrency));
      const results = await Promise.allSettled(chunk.map((m) => this.dispatch(group, topic, m)));
      const failedAt = results.findIndex((r) => r.status === 'rejected');
      const handled = failedAt === -1 ? chunk.length : failedAt;
      if (handled > 0) {
        if (pending) group.retries.delete(tp);
        resolveOffset(chunk[handled - 1]!.offset);
      }
      if (failedAt !== -1) {
        const message = chunk[failedAt]!;
        const failure = (results[failedAt] as PromiseRejectedResult).reason as unknown;
        const err = failure instanceof HandlerFailure ? failure.error : failure;
        const again = group.retries.get(tp);
        const attempts = again?.offset === message.offset ? again.attempts + 1 : 1;
        if (attempts >= this.poisonAfterAttempts && (await this.setAside(group, failure, err))) {
          // Recorded by its subscription: move past it, as if handled.
          group.retries.delete(tp);
          resolveOffset(message.offset);
          i += handled + 1;
          await commitOffsetsIfNecessary();
          await heartbeat();
          continue;
        }
        group.retries.set(tp, { offset: message.offset, attempts });
        const delay = Math.min(MAX_RETRY_BACKOFF_MS, this.retryBackoffMs * 2 ** Math.min(attempts - 1, 16));
        if (attempts === 1 || attempts % 10 === 0) {
          this.options.logger?.warn(
            { group: group.name, topic, partition, offset: message.offset, attempts, err: errorMessage(err) },
            'event handler failed; the event will be delivered again',
          );
        }
        // Not resolved, so not committed: rewind to it and hold the partition for the backoff.
        await commitOffsetsIfNecessary();
        consumer.seek({ topic, partition, offset: message.offset });
        const resume = pause();
        const timer = setTimeout(() => {
          group.timers.delete(timer);
          resume();
        }, delay);
        group.timers.add(timer);
        return;
      }
      i += chunk.length;
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  }

  /** Hands an event that keeps failing (not an outage) to its subscription's onPoison; true when it took it. */
  private async setAside(group: Group, failure: unknown, err: unknown): Promise<boolean> {
    if (!(failure instanceof HandlerFailure) || !failure.onPoison || this.isTransient(err)) return false;
    try {
      await failure.onPoison(failure.event, err);
    } catch (recordErr) {
      this.options.logger?.warn({ group: group.name, event_id: failure.event.id, err: errorMessage(recordErr) }, 'a poison event could not be set aside; it will be delivered again');
      return false;
    }
    this.options.logger?.error({ group: group.name, event_id: failure.event.id, type: failure.event.type, err: errorMessage(err) }, 'event set aside after repeated handler failures');
    return true;
  }

  private async dispatch(group: Group, topic: string, message: KafkaMessage): Promise<void> {
    const handlers = group.handlers.get(topic) ?? [];
    let event: EventEnvelope;
    try {
      event = JSON.parse(message.value?.toString('utf8') ?? '') as EventEnvelope;
    } catch {
      // Retrying cannot fix a message that is not JSON; holding the partition forever would.
      this.options.logger?.error({ group: group.name, topic, offset: message.offset }, 'skipping a Kafka message that is not a JSON event envelope');
      return;
    }
    for (const handler of handlers) await handler(event);
  }

  private kafkaLog(entry: LogEntry): void {
    const logger = this.options.logger;
    if (!logger || entry.level > logLevel.WARN) return;
    const { message, ...extra } = entry.log;
    // We bound retries on purpose (the outbox retries later); the warning says nothing new.
    if (message.startsWith('Limiting retries for the idempotent producer')) return;
    // kafkajs reports retriable conditions (coordinator loading, every refused reconnect) at
    // ERROR, several times a second during an outage: pass each distinct line at most every 30 s,
    // as a warning; publish failures and healthy() are what callers act on.
    const key = `${entry.namespace}|${message}`;
    const now = Date.now();
    if ((this.logSeen.get(key) ?? -Infinity) > now - LOG_REPEAT_MS) return;
    if (this.logSeen.size > 1000) this.logSeen.clear();
    this.logSeen.set(key, now);
    logger.warn({ kafkajs: entry.namespace, ...extra }, message);
  }
}
