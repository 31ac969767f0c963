import type {
  CreatedWebhookDto,
  CreateWebhookDto,
  ErrorDto,
  RotatedWebhookSecretDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookDto,
  WebhookListDto,
} from '@igw/contracts';

/**
 * Examples of the webhooks routes in the OpenAPI document (typed, and checked against the schemas
 * by the linter). The secrets have the real shape (`whsec_` + base64 of 24 bytes) and decode to
 * "example-secret-not-real!" and "rotated-secret-not-real!".
 */
export const CREATE_WEBHOOK_EXAMPLES: Record<string, { summary: string; value: CreateWebhookDto }> = {
  minimal: { summary: 'One endpoint, one event type', value: { url: 'https://hooks.example.com/intent-gateway', events: ['approval.requested'] } },
  complete: {
    summary: 'Several event types and a description',
    value: {
      url: 'https://hooks.example.com/intent-gateway',
      events: ['approval.requested', 'approval.approved', 'approval.denied', 'approval.expired'],
      description: 'Approvals channel of the on-call bot',
    },
  },
};

export const WEBHOOK_EXAMPLE: WebhookDto = {
  id: 'whk_0193a6f9a3b64c2d8e1f0a9b8c7d6e5f',
  url: 'https://hooks.example.com/intent-gateway',
  events: ['approval.requested', 'approval.approved', 'approval.denied', 'approval.expired'],
  description: 'Approvals channel of the on-call bot',
  status: 'active',
  disabled_reason: null,
  created_at: '2026-11-26T09:45:00.000Z',
};

export const CREATED_WEBHOOK_EXAMPLE: CreatedWebhookDto = { ...WEBHOOK_EXAMPLE, secret: 'whsec_ZXhhbXBsZS1zZWNyZXQtbm90LXJlYWwh' };

/** An endpoint that answered 410 Gone to a delivery: disabled until enabled again. */
const DISABLED_WEBHOOK_EXAMPLE: WebhookDto = {
  id: 'whk_0193a6e2b4c58d1e7f6a5b4c3d2e1f0a',
  url: 'https://audit.example.net/igw/decisions',
  events: ['decision.made'],
  description: null,
  status: 'disabled',
  disabled_reason: 'the endpoint answered 410 Gone',
  created_at: '2026-11-26T08:12:00.000Z',
};

export const WEBHOOK_LIST_EXAMPLE: WebhookListDto = {
  data: [WEBHOOK_EXAMPLE, DISABLED_WEBHOOK_EXAMPLE],
  next_cursor: 'eyJjcmVhdGVkX2F0IjoiMjAyNi0xMS0yNlQwODoxMjowMC4wMDBaIiwiaWQiOiJ3aGtfMDE5M2E2ZTJiNGM1OGQxZTdmNmE1YjRjM2QyZTFmMGEifQ',
};

/** What enabling the disabled endpoint answers: active again, the reason cleared. */
export const ENABLED_WEBHOOK_EXAMPLE: WebhookDto = { ...DISABLED_WEBHOOK_EXAMPLE, status: 'active', disabled_reason: null };

export const ROTATED_WEBHOOK_SECRET_EXAMPLE: RotatedWebhookSecretDto = {
  id: 'whk_0193a6f9a3b64c2d8e1f0a9b8c7d6e5f',
  secret: 'whsec_cm90YXRlZC1zZWNyZXQtbm90LXJlYWwh',
  previous_secret_expires_at: '2026-11-27T11:20:00.000Z',
};

const RETRYING_DELIVERY_EXAMPLE: WebhookDeliveryDto = {
  id: 'whd_8a1b2c3d4e5f60718293a4b5c6d7e8f9',
  event_id: 'evt_0193a6fa07c47f1e8d2c3b4a5f6e7d8c',
  event_type: 'approval.requested',
  status: 'pending',
  attempts: 2,
  last_response_code: 503,
  last_error: 'endpoint answered 503',
  next_attempt_at: '2026-11-26T09:52:35.318Z',
  created_at: '2026-11-26T09:47:30.214Z',
  delivered_at: null,
};

const SUCCEEDED_DELIVERY_EXAMPLE: WebhookDeliveryDto = {
  id: 'whd_5f2c8e1a9b3d47c6e0f1a2b3c4d5e6f7',
  event_id: 'evt_0193a6f8d2f1a3b4c5d6e7f8091a2b3c',
  event_type: 'approval.requested',
  status: 'succeeded',
  attempts: 1,
  last_response_code: 200,
  last_error: null,
  next_attempt_at: null,
  created_at: '2026-11-26T09:40:00.412Z',
  delivered_at: '2026-11-26T09:40:00.873Z',
};

export const WEBHOOK_DELIVERY_LIST_EXAMPLE: WebhookDeliveryListDto = {
  data: [RETRYING_DELIVERY_EXAMPLE, SUCCEEDED_DELIVERY_EXAMPLE],
  next_cursor: null,
};

const refusal = (path: string, message: string): ErrorDto => ({ code: 'invalid_request', message, details: [{ path, message }] });
const UNKNOWN_EVENT =
  'events: unknown event type intention.created (known: intention.published, intent.evaluated, approval.requested, approval.approved, approval.denied, approval.expired, mandate.dispensed, mandate.refreshed, mandate.revoked, decision.made)';

/** The 400 answers of `POST /v1/webhooks` (one code, so the examples are named here). */
export const CREATE_WEBHOOK_400_EXAMPLES: Record<string, { summary: string; value: ErrorDto }> = {
  privateDestination: {
    summary: 'The host resolves to a private address',
    value: refusal('url', 'url host hooks.internal.example resolves to 10.0.4.17, which is not a public address'),
  },
  unresolvable: { summary: 'The host does not resolve', value: refusal('url', 'url host hooks.example.invalid does not resolve') },
  notHttp: { summary: 'Not an http(s) URL', value: refusal('url', 'url must use https (or http)') },
  unknownEventType: { summary: 'An event type that is not delivered', value: refusal('events', UNKNOWN_EVENT) },
  noEvents: { summary: 'An empty events list', value: refusal('events', 'events must name at least one event type') },
};
