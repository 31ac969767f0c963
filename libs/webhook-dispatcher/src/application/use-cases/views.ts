import type { WebhookDeliveryDto, WebhookDto } from '@igw/contracts';
import type { Delivery, Webhook } from '../../domain';

export const toWebhookDto = (w: Webhook): WebhookDto => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  status: w.status,
  disabled_reason: w.disabledReason,
  created_at: w.createdAt.toISOString(),
});

export const toDeliveryDto = (d: Delivery): WebhookDeliveryDto => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempts: d.attempts,
  last_response_code: d.lastResponseCode,
  last_error: d.lastError,
  next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
  created_at: d.createdAt.toISOString(),
  delivered_at: d.deliveredAt?.toISOString() ?? null,
});
