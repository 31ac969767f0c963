import { Inject, Injectable } from '@nestjs/common';
import type { CreatedWebhookDto, CreateWebhookDto, RotatedWebhookSecretDto, WebhookDeliveryListDto, WebhookDto, WebhookListDto } from '@igw/contracts';
import { CLOCK, invalidRequest, newId, notFound, parseKeysetQuery, single, toPage, type Caller, type Clock, type QueryValue } from '@igw/kernel';
import { DELIVERY_STATUSES, rotateSecrets, ROTATION_OVERLAP_MS, urlProblem, type DeliveryStatus, type Webhook } from '../../domain';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { DELIVERY_REPOSITORY, WEBHOOK_REPOSITORY, type DeliveryRepository, type WebhookRepository } from '../ports/webhook.repository.port';
import { WEBHOOK_SENDER, type WebhookSender } from '../ports/webhook-sender.port';
import { newSecret, SECRET_SEALER, type SecretSealer } from '../webhook-secrets';
import { toDeliveryDto, toWebhookDto } from './views';

const bad = (path: string, message: string) => invalidRequest(message, [{ path, message }]);

/** `POST /v1/webhooks` (admin): checks the URL and its destination, and shows the secret once. */
@Injectable()
export class RegisterWebhookUseCase {
  constructor(
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const problem = urlProblem(body.url);
    if (problem) throw bad('url', problem);
    const unknown = body.events.filter((e) => !WEBHOOK_EVENT_TYPES.includes(e));
    if (unknown.length > 0) throw bad('events', `events: unknown event type ${unknown[0]} (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`);
    const destination = await this.sender.destinationProblem(body.url);
    if (destination) throw bad('url', destination);
    const now = this.clock.now();
    const id = newId('whk');
    const secret = newSecret(this.sealer, id);
    const webhook: Webhook = {
      id,
      orgId: caller.orgId,
      url: body.url,
      events: [...new Set(body.events)],
      description: body.description ?? null,
      status: 'active',
      disabledReason: null,
      secrets: [{ ...secret.stored, createdAt: now, expiresAt: null }],
      createdAt: now,
      updatedAt: now,
    };
    await this.webhooks.create(webhook);
    return { ...toWebhookDto(webhook), secret: secret.plain };
  }
}

@Injectable()
export class ListWebhooksUseCase {
  constructor(@Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository) {}

  async execute(caller: Caller, query: { limit?: QueryValue; cursor?: QueryValue }): Promise<WebhookListDto> {
    const page = parseKeysetQuery(query, { defaultLimit: 50 });
    const rows = toPage(await this.webhooks.list(caller.orgId, page), page.limit);
    return { data: rows.items.map(toWebhookDto), next_cursor: rows.nextCursor };
  }
}

@Injectable()
export class DeleteWebhookUseCase {
  constructor(@Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository) {}

  async execute(caller: Caller, id: string): Promise<void> {
    if (!(await this.webhooks.delete(caller.orgId, id))) throw notFound('webhook');
  }
}

/**
 * `POST /v1/webhooks/{id}/enable`: an endpoint disabled by a 410 (or already active) takes events
 * again from now on; what was cancelled while it was disabled is not sent.
 */
@Injectable()
export class EnableWebhookUseCase {
  constructor(
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<WebhookDto> {
    const webhook = await this.webhooks.enable(caller.orgId, id, this.clock.now());
    if (!webhook) throw notFound('webhook');
    return toWebhookDto(webhook);
  }
}

/** `POST /v1/webhooks/{id}/rotate-secret`: a new secret (shown once); the previous ones sign for 24 h more. */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<RotatedWebhookSecretDto> {
    const now = this.clock.now();
    const secret = newSecret(this.sealer, id);
    const updated = await this.webhooks.updateSecrets(caller.orgId, id, (current) => rotateSecrets(current, secret.stored, now), now);
    if (!updated) throw notFound('webhook');
    return { id, secret: secret.plain, previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() };
  }
}

/** `GET /v1/webhooks/{id}/deliveries?status&limit&cursor`: newest first. */
@Injectable()
export class ListDeliveriesUseCase {
  constructor(
    @Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository,
    @Inject(DELIVERY_REPOSITORY) private readonly deliveries: DeliveryRepository,
  ) {}

  async execute(caller: Caller, id: string, query: { status?: QueryValue; limit?: QueryValue; cursor?: QueryValue }): Promise<WebhookDeliveryListDto> {
    const page = parseKeysetQuery(query, { defaultLimit: 50 });
    const status = single('status', query.status);
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) throw bad('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    if (!(await this.webhooks.find(caller.orgId, id))) throw notFound('webhook');
    const rows = toPage(await this.deliveries.list(caller.orgId, id, { ...page, ...(status ? { status: status as DeliveryStatus } : {}) }), page.limit);
    return { data: rows.items.map(toDeliveryDto), next_cursor: rows.nextCursor };
  }
}
