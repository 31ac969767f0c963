import { Inject, Injectable } from '@nestjs/common';
import type { CreatedWebhookDto, CreateWebhookDto } from '@igw/contracts';
import { CLOCK, newId, type Caller, type Clock } from '@igw/kernel';
import { urlProblem, type Webhook } from '../../domain';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';
import { WEBHOOK_SENDER, type WebhookSender } from '../ports/webhook-sender.port';
import { newSecret, SECRET_SEALER, type SecretSealer } from '../webhook-secrets';
import { toWebhookDto } from './views';
import { badField } from './webhook-input';

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
    if (problem) throw badField('url', problem);
    const unknown = body.events.filter((e) => !WEBHOOK_EVENT_TYPES.includes(e));
    if (unknown.length > 0) throw badField('events', `events: unknown event type ${unknown[0]} (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`);
    const destination = await this.sender.destinationProblem(body.url);
    if (destination) throw badField('url', destination);
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
