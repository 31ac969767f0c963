import type { PageKey } from '@igw/kernel';
import type { AttemptOutcome, Delivery, DeliveryStatus, Webhook, WebhookSecret } from '../../domain';

export const WEBHOOK_REPOSITORY = Symbol('WEBHOOK_REPOSITORY');
export const DELIVERY_REPOSITORY = Symbol('DELIVERY_REPOSITORY');

/** Registered endpoints; every read and write is scoped to one org. */
export interface WebhookRepository {
  create(webhook: Webhook): Promise<void>;
  find(orgId: string, id: string): Promise<Webhook | null>;
  /** Newest first, at most `limit` rows after `after`. */
  list(orgId: string, page: { limit: number; after: PageKey | null }): Promise<Webhook[]>;
  /** Removes it and its deliveries (pending ones are never sent). False when it does not exist. */
  delete(orgId: string, id: string): Promise<boolean>;
  /** Re-activates a disabled webhook (after its endpoint was fixed); null when not found. */
  enable(orgId: string, id: string, now: Date): Promise<Webhook | null>;
  /** Replaces the secrets under a row lock (concurrent rotations serialize); null when not found. */
  updateSecrets(orgId: string, id: string, change: (current: WebhookSecret[]) => WebhookSecret[], now: Date): Promise<Webhook | null>;
  /**
   * The event types the org's active webhooks subscribe to, and the org's subscription counter
   * they correspond to, read in one snapshot. create, delete and a 410 disable bump the counter in
   * their transaction and advance it on the version board after commit.
   */
  subscriptions(orgId: string): Promise<{ version: number; types: string[] }>;
  /** Every org with an active webhook (the subscriptions loaded at start). */
  subscribedOrgIds(): Promise<string[]>;
}

/** A delivery taken for an attempt, with what the attempt needs of its webhook. */
export interface ClaimedDelivery {
  delivery: Delivery;
  webhook: Pick<Webhook, 'id' | 'url' | 'status' | 'secrets'>;
}

export interface DeliveryRepository {
  /**
   * One pending delivery per active webhook of the event's org subscribed to `type` that existed
   * when the event occurred, give or take 60 s of clock difference between services (a webhook
   * never gets history from before it was registered); an event already
   * fanned out to a webhook is skipped (idempotent on (webhook, event)). Returns how many were
   * created.
   */
  fanOut(event: { id: string; orgId: string; type: string; body: string; occurredAt: string }, now: Date): Promise<number>;
  /**
   * Leases up to `limit` due deliveries (pending, next attempt reached, no live lease) for
   * `leaseMs`: replicas never take the same delivery at once (SKIP LOCKED), and a worker that dies
   * mid-attempt releases it when the lease runs out.
   */
  claimDue(limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]>;
  /** Stores an attempt's outcome and ends the lease; disables the webhook when asked (410), cancelling its other pending deliveries. */
  recordAttempt(delivery: Pick<Delivery, 'id' | 'webhookId'>, outcome: AttemptOutcome, now: Date): Promise<void>;
  /** Marks a claimed delivery cancelled (its webhook is disabled). */
  cancel(deliveryId: string): Promise<void>;
  /** A webhook's deliveries, newest first. */
  list(orgId: string, webhookId: string, page: { limit: number; after: PageKey | null; status?: DeliveryStatus }): Promise<Delivery[]>;
  /** When the next pending delivery can be taken: its attempt time, or its lease's end if later (for the worker's timer); null when none. */
  nextDueAt(): Promise<Date | null>;
}
