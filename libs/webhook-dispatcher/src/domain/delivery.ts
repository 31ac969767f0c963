import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from '@igw/kernel';
import { nextAttemptAt, verdictOf } from './retry-schedule';

/** A delivery's states (`WebhookDeliveryDto.status` documents their meaning). */
export const DELIVERY_STATUSES = WEBHOOK_DELIVERY_STATUSES;
export type DeliveryStatus = WebhookDeliveryStatus;

export interface Delivery {
  id: string;
  orgId: string;
  webhookId: string;
  /** The event id: also the `webhook-id` header, the same on every attempt. */
  eventId: string;
  eventType: string;
  /** The exact body sent on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastResponseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** What one attempt got: a status (and Retry-After seconds), or no answer. */
export type AttemptResult = { status: number; retryAfterS: number | null } | { status: null; error: string };

/** The change an attempt makes; `disableWebhook` when the endpoint said it is gone. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  attempts: number;
  lastResponseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  disableWebhook: boolean;
}

/** Applies one attempt (the `attemptsBefore + 1`-th) to a delivery (DESIGN 6.11 rules). */
export function afterAttempt(attemptsBefore: number, result: AttemptResult, schedule: readonly number[], now: Date): AttemptOutcome {
  const attempts = attemptsBefore + 1;
  const code = result.status;
  const error = result.status === null ? result.error.slice(0, 500) : null;
  const verdict = verdictOf(code);
  if (verdict === 'delivered')
    return { status: 'succeeded', attempts, lastResponseCode: code, lastError: null, nextAttemptAt: null, deliveredAt: now, disableWebhook: false };
  if (verdict === 'gone')
    return {
      status: 'failed',
      attempts,
      lastResponseCode: code,
      lastError: 'endpoint answered 410 Gone; webhook disabled',
      nextAttemptAt: null,
      deliveredAt: null,
      disableWebhook: true,
    };
  const next = nextAttemptAt(attempts, schedule, now, result.status === null ? null : result.retryAfterS);
  return {
    status: next === null ? 'exhausted' : 'pending',
    attempts,
    lastResponseCode: code,
    lastError: error ?? `endpoint answered ${code}`,
    nextAttemptAt: next,
    deliveredAt: null,
    disableWebhook: false,
  };
}
