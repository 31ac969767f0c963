import type { EventEnvelope } from '@igw/contracts';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { defined } from '@igw/kernel';
import type { EventHandler, Subscription, TransientErrorTest } from '../../ports/event-bus.port';
import type { KafkaEventBusLogger } from './kafka-log';
import { errorMessage, HandlerFailure, withTimeout } from './kafka-support';
import { withConsumeSpan } from '../../trace-links';

/** What a consumer group needs from the bus that owns it. */
export interface ConsumerGroupContext {
  kafka: Kafka;
  logger?: KafkaEventBusLogger;
  retryBackoffMs: number;
  sessionTimeoutMs: number;
  isTransient: TransientErrorTest;
  poisonAfterAttempts: number;
  ensureTopics(topics: string[]): Promise<void>;
  healthy(): Promise<boolean>;
  stopped(): boolean;
}

interface PendingRetry {
  offset: string;
  attempts: number;
}

const MAX_RETRY_BACKOFF_MS = 30_000;
/**
 * A consumer that has neither fetched nor sent a heartbeat for this long while the broker answers
 * is stuck (kafkajs can stay wedged after a broker restart, e.g. kafkajs#267): it is replaced.
 * Healthy consumers fetch every `maxWaitTimeInMs` (1 s), so this never fires for them.
 */
const STALL_MS = 45_000;
const STALL_CHECK_MS = 10_000;
export const STOP_STEP_TIMEOUT_MS = 5000;

/**
 * One consumer group: commits an offset only after its handlers succeeded; a handler that throws
 * gets the same event again after a backoff and nothing behind it in that partition is handled
 * meanwhile; an event that keeps failing (not an outage) goes to its subscription's `onPoison`.
 */
export class KafkaConsumerGroup {
  /** topic → handlers of every subscription of this group to that topic. */
  private readonly handlers = new Map<string, EventHandler[]>();
  /** A new group starts at the earliest offsets unless every subscription of it asked for `latest`. */
  private fromBeginning = false;
  /** Events of one partition handled at once: the smallest any subscription of the group asked for. */
  private concurrency = Number.POSITIVE_INFINITY;
  consumer?: Consumer;
  /** `topic:partition` → the offset that failed and must be handled before anything after it. */
  private readonly retries = new Map<string, PendingRetry>();
  private readonly timers = new Set<NodeJS.Timeout>();
  starting?: Promise<void>;
  /** Last sign of life of the running consumer (a fetch or a heartbeat), for the stall watchdog. */
  private lastAlive = Date.now();

  constructor(
    readonly name: string,
    private readonly ctx: ConsumerGroupContext,
  ) {}

  /** The topics this group reads. */
  get topics(): string[] {
    return [...this.handlers.keys()];
  }

  /** Whether a new group starts at the earliest offsets (else at the latest). */
  get readsFromBeginning(): boolean {
    return this.fromBeginning;
  }

  add(subscription: Subscription): void {
    if ((subscription.startAt ?? 'beginning') === 'beginning') this.fromBeginning = true;
    const wanted = subscription.concurrency ?? 1;
    this.concurrency = Math.min(this.concurrency, Number.isFinite(wanted) ? Math.max(1, Math.floor(wanted)) : 1);
    const { handler, onPoison } = subscription;
    const wrapped: EventHandler = async (event) => {
      try {
        await handler(event);
      } catch (err) {
        throw new HandlerFailure(err, event, onPoison);
      }
    };
    for (const topic of subscription.topics) {
      const handlers = this.handlers.get(topic) ?? [];
      handlers.push(wrapped);
      this.handlers.set(topic, handlers);
    }
  }

  start(): Promise<void> {
    this.starting ??= this.run().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Shutdown; `quietly` bounds each step so it finishes even when the broker is gone. */
  async stop(quietly: (p: Promise<unknown> | undefined) => Promise<unknown> | undefined): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await quietly(this.starting);
    await quietly(this.consumer?.disconnect());
  }

  private async run(): Promise<void> {
    const topics = [...this.handlers.keys()];
    await this.ctx.ensureTopics(topics);
    if (this.ctx.stopped()) return;
    const { sessionTimeoutMs } = this.ctx;
    const consumer = this.ctx.kafka.consumer({
      groupId: this.name,
      sessionTimeout: sessionTimeoutMs,
      rebalanceTimeout: Math.max(sessionTimeoutMs, 15_000),
      heartbeatInterval: Math.max(500, Math.floor(sessionTimeoutMs / 5)),
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
        restartOnFailure: async () => !this.ctx.stopped(),
      },
    });
    // After a rebalance the committed offset is the truth again.
    consumer.on(consumer.events.GROUP_JOIN, () => this.retries.clear());
    const alive = () => (this.lastAlive = Date.now());
    for (const e of [consumer.events.FETCH_START, consumer.events.HEARTBEAT, consumer.events.GROUP_JOIN]) consumer.on(e, alive);
    alive();
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.ctx.stopped() || this.consumer !== consumer) return;
      // kafkajs gave up on this consumer (a non-retriable error): start a fresh one so delivery
      // never silently stops.
      this.consumer = undefined;
      this.restartLater(payload.error);
    });
    this.consumer = consumer;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: this.fromBeginning });
      await consumer.run({
        // Only resolved (handled) offsets are ever committed: at batch end, and every second
        // during a long batch.
        autoCommit: true,
        autoCommitInterval: 1000,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 1,
        eachBatch: (payload) => this.handleBatch(consumer, payload),
      });
      this.watchForStall(consumer);
    } catch (err) {
      this.consumer = undefined;
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
  }

  private watchForStall(consumer: Consumer): void {
    const timer = setInterval(() => {
      if (this.ctx.stopped() || this.consumer !== consumer) {
        clearInterval(timer);
        this.timers.delete(timer);
        return;
      }
      if (Date.now() - this.lastAlive < STALL_MS) return;
      void this.ctx.healthy().then(async (reachable) => {
        // While the broker is down kafkajs is reconnecting on its own; only a stall with a reachable broker is ours to fix.
        if (!reachable || this.ctx.stopped() || this.consumer !== consumer) return;
        clearInterval(timer);
        this.timers.delete(timer);
        this.consumer = undefined;
        await withTimeout(consumer.disconnect(), STOP_STEP_TIMEOUT_MS, () => 'disconnect timed out').catch(() => undefined);
        this.restartLater(new Error(`no fetch or heartbeat for ${Math.round((Date.now() - this.lastAlive) / 1000)} s while the broker answers`));
      });
    }, STALL_CHECK_MS);
    timer.unref();
    this.timers.add(timer);
  }

  private restartLater(err: unknown): void {
    if (this.ctx.stopped()) return;
    this.ctx.logger?.error({ group: this.name, err: errorMessage(err) }, 'Kafka consumer is not running; restarting it in 5 s');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.ctx.stopped()) void this.start().catch((e: unknown) => this.restartLater(e));
    }, 5000);
    this.timers.add(timer);
  }

  private async handleBatch(consumer: Consumer, payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    const tp = `${topic}:${partition}`;
    const messages = batch.messages;
    for (let i = 0; i < messages.length;) {
      if (!isRunning() || isStale() || this.ctx.stopped()) return;
      const pending = this.retries.get(tp);
      const next = defined(messages[i], 'batch message');
      // Never run past an event that still has to be redelivered (a batch fetched before the seek).
      if (pending && BigInt(next.offset) > BigInt(pending.offset)) return;
      // While an event is being redelivered, one at a time; otherwise up to the group's concurrency.
      const chunk = messages.slice(i, i + (pending ? 1 : this.concurrency));
      const results = await Promise.allSettled(chunk.map((m) => this.dispatch(topic, m)));
      const failedAt = results.findIndex((r) => r.status === 'rejected');
      const handled = failedAt === -1 ? chunk.length : failedAt;
      if (handled > 0) {
        if (pending) this.retries.delete(tp);
        resolveOffset(defined(chunk[handled - 1], 'handled message').offset);
      }
      if (failedAt !== -1) {
        const message = defined(chunk[failedAt], 'failed message');
        const failure = (results[failedAt] as PromiseRejectedResult).reason as unknown;
        const err = failure instanceof HandlerFailure ? failure.error : failure;
        const again = this.retries.get(tp);
        const attempts = again?.offset === message.offset ? again.attempts + 1 : 1;
        if (attempts >= this.ctx.poisonAfterAttempts && (await this.setAside(failure, err))) {
          // Recorded by its subscription: move past it, as if handled.
          this.retries.delete(tp);
          resolveOffset(message.offset);
          i += handled + 1;
          await commitOffsetsIfNecessary();
          await heartbeat();
          continue;
        }
        this.retries.set(tp, { offset: message.offset, attempts });
        const delay = Math.min(MAX_RETRY_BACKOFF_MS, this.ctx.retryBackoffMs * 2 ** Math.min(attempts - 1, 16));
        if (attempts === 1 || attempts % 10 === 0) {
          this.ctx.logger?.warn(
            { group: this.name, topic, partition, offset: message.offset, attempts, err: errorMessage(err) },
            'event handler failed; the event will be delivered again',
          );
        }
        // Not resolved, so not committed: rewind to it and hold the partition for the backoff.
        await commitOffsetsIfNecessary();
        consumer.seek({ topic, partition, offset: message.offset });
        const resume = pause();
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resume();
        }, delay);
        this.timers.add(timer);
        return;
      }
      i += chunk.length;
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  }

  /** Hands an event that keeps failing (not an outage) to its subscription's onPoison; true when it took it. */
  private async setAside(failure: unknown, err: unknown): Promise<boolean> {
    if (!(failure instanceof HandlerFailure) || !failure.onPoison || this.ctx.isTransient(err)) return false;
    try {
      await failure.onPoison(failure.event, err);
    } catch (recordErr) {
      this.ctx.logger?.warn(
        { group: this.name, event_id: failure.event.id, err: errorMessage(recordErr) },
        'a poison event could not be set aside; it will be delivered again',
      );
      return false;
    }
    this.ctx.logger?.error(
      { group: this.name, event_id: failure.event.id, type: failure.event.type, err: errorMessage(err) },
      'event set aside after repeated handler failures',
    );
    return true;
  }

  private async dispatch(topic: string, message: KafkaMessage): Promise<void> {
    const handlers = this.handlers.get(topic) ?? [];
    let event: EventEnvelope;
    try {
      event = JSON.parse(message.value?.toString('utf8') ?? '') as EventEnvelope;
    } catch {
      // Retrying cannot fix a message that is not JSON; holding the partition forever would.
      this.ctx.logger?.error({ group: this.name, topic, offset: message.offset }, 'skipping a Kafka message that is not a JSON event envelope');
      return;
    }
    await withConsumeSpan(topic, this.name, message.headers, async () => {
      for (const handler of handlers) await handler(event);
    });
  }
}
