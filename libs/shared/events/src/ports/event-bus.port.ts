import type { EventEnvelope } from '@igw/contracts';

export const EVENT_BUS = Symbol('EVENT_BUS');

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface Subscription {
  /** Consumer group: every group sees every event once; members of one group share them. */
  group: string;
  topics: string[];
  handler: EventHandler;
  /**
   * Where a group that has never committed an offset starts: `beginning` (default; read models
   * need all history) or `latest` (consumers that only react to what happens from now on, such as
   * webhook delivery). Once a group has committed offsets it always resumes from them.
   */
  startAt?: 'beginning' | 'latest';
  /**
   * How many events of one partition may be handled at once (default 1: strictly in order). For
   * handlers that do not depend on order and are idempotent: a failure redelivers from the first
   * event that failed, so events after it that did succeed are handled again.
   */
  concurrency?: number;
  /**
   * Called with an event the handler keeps failing on for a reason that is not an outage (poison:
   * see the bus's `isTransient`), after the bus's attempts: record it (a dead letter) so the bus can
   * move past it instead of holding every event behind it. If it throws, the event is retried as
   * before. Without it, such an event is retried forever.
   */
  onPoison?: (event: EventEnvelope, error: unknown) => Promise<void>;
}

/** How a bus tells an outage (retry until it passes) from an event its handler will never take. */
export type TransientErrorTest = (error: unknown) => boolean;

/**
 * Publishes already-committed events (the outbox relay is the only producer) and delivers them
 * to subscribers at least once. A handler that throws gets the event again.
 */
export interface EventBus {
  /** Resolves once the bus has durably accepted every event (Kafka: acks=all). */
  publish(events: EventEnvelope[], key?: (e: EventEnvelope) => string): Promise<void>;
  subscribe(subscription: Subscription): Promise<void>;
  /** Starts delivery for all subscriptions registered so far. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** True when the bus can currently accept events. */
  healthy(): Promise<boolean>;
}

export const OUTBOX_NOTIFIER = Symbol('OUTBOX_NOTIFIER');

/** An outbox row just committed, with its place in commit order (the table's `seq`). */
export interface CommittedOutboxRow {
  seq: string;
  id: string;
  key: string;
  envelope: EventEnvelope;
}

/** Lets a repository tell its service's outbox relay that rows were just committed. */
export interface OutboxNotifier {
  nudge(): void;
  /**
   * The rows a commit of this process just wrote, in seq order, so the relay need not read them
   * back; a relay that cannot take them over treats this as `nudge()`.
   */
  handOver?(rows: readonly CommittedOutboxRow[]): void;
}
