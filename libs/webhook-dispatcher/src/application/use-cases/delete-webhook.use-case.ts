import { Inject, Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';

@Injectable()
export class DeleteWebhookUseCase {
  constructor(@Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository) {}

  async execute(caller: Caller, id: string): Promise<void> {
    if (!(await this.webhooks.delete(caller.orgId, id))) throw notFound('webhook');
  }
}
