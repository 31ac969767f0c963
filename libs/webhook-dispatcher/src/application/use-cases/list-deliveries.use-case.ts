import { Inject, Injectable } from '@nestjs/common';
import type { WebhookDeliveryListDto } from '@igw/contracts';
import { notFound, parseKeysetQuery, single, toPage, type Caller, type QueryValue } from '@igw/kernel';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../domain';
import { DELIVERY_REPOSITORY, WEBHOOK_REPOSITORY, type DeliveryRepository, type WebhookRepository } from '../ports/webhook.repository.port';
import { toDeliveryDto } from './views';
import { badField } from './webhook-input';

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
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status))
      throw badField('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    if (!(await this.webhooks.find(caller.orgId, id))) throw notFound('webhook');
    const rows = toPage(await this.deliveries.list(caller.orgId, id, { ...page, ...(status ? { status: status as DeliveryStatus } : {}) }), page.limit);
    return { data: rows.items.map(toDeliveryDto), next_cursor: rows.nextCursor };
  }
}
