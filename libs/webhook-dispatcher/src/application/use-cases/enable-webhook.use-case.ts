import { Inject, Injectable } from '@nestjs/common';
import type { WebhookDto } from '@igw/contracts';
import { CLOCK, foundOr404, type Caller, type Clock } from '@igw/kernel';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';
import { toWebhookDto } from './views';

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
    return toWebhookDto(foundOr404(await this.webhooks.enable(caller.orgId, id, this.clock.now()), 'webhook'));
  }
}
