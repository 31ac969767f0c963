import { Inject, Injectable } from '@nestjs/common';
import type { WebhookListDto } from '@igw/contracts';
import { parseKeysetQuery, toPage, type Caller, type QueryValue } from '@igw/kernel';
import { WEBHOOK_REPOSITORY, type WebhookRepository } from '../ports/webhook.repository.port';
import { toWebhookDto } from './views';

@Injectable()
export class ListWebhooksUseCase {
  constructor(@Inject(WEBHOOK_REPOSITORY) private readonly webhooks: WebhookRepository) {}

  async execute(caller: Caller, query: { limit?: QueryValue; cursor?: QueryValue }): Promise<WebhookListDto> {
    const page = parseKeysetQuery(query, { defaultLimit: 50 });
    const rows = toPage(await this.webhooks.list(caller.orgId, page), page.limit);
    return { data: rows.items.map(toWebhookDto), next_cursor: rows.nextCursor };
  }
}
