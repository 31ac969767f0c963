import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@igw/contracts';
import { CLOCK, type Clock } from '@igw/kernel';
import { webhookBody, webhookTypeOf } from '../webhook-event-types';
import { DELIVERY_REPOSITORY, type DeliveryRepository } from '../ports/webhook.repository.port';
import { WebhookSubscriptions } from '../read-model/webhook-subscriptions.read-model';

export const DELIVERY_NUDGE = Symbol('DELIVERY_NUDGE');
/** Tells this process's delivery worker that deliveries are due now. */
export interface DeliveryNudge {
  nudge(): void;
}

/**
 * A public event becomes one pending delivery per subscribed, active webhook of its org — and only
 * of its org. Idempotent on (webhook, event id): a redelivered event creates nothing new.
 */
@Injectable()
export class FanOutEventUseCase {
  constructor(
    @Inject(DELIVERY_REPOSITORY) private readonly deliveries: DeliveryRepository,
    private readonly subscriptions: WebhookSubscriptions,
    @Inject(DELIVERY_NUDGE) private readonly worker: DeliveryNudge,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(event: EventEnvelope): Promise<number> {
    const type = webhookTypeOf(event.type);
    if (type === undefined) return 0;
    // Memory only for the common case: no webhook of this org wants this type.
    if (!(await this.subscriptions.wants(event.org_id, type))) return 0;
    const created = await this.deliveries.fanOut(
      { id: event.id, orgId: event.org_id, type, body: webhookBody(type, event.occurred_at, event.data), occurredAt: event.occurred_at },
      this.clock.now(),
    );
    if (created > 0) this.worker.nudge();
    return created;
  }
}
