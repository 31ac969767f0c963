import type { AttemptOutcome } from './delivery';
import type { WebhookStatus } from './webhook';

/** A webhook switched off by an attempt's outcome; its other pending deliveries are cancelled. */
export interface WebhookDisable {
  status: Extract<WebhookStatus, 'disabled'>;
  reason: string;
}

/** The endpoint answered 410 Gone (DESIGN 6.11): the webhook is disabled; otherwise nothing. */
export function disableAfter(outcome: AttemptOutcome): WebhookDisable | null {
  return outcome.disableWebhook ? { status: 'disabled', reason: 'the endpoint answered 410 Gone' } : null;
}
