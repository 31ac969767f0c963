import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { parseEvent, Topics, type IntentCardEventV1, type MandateEventV1 } from '@igw/contracts';
import { EVENT_BUS, subscribeReadModel, type EventBus } from '@igw/events';
import { IntentCardsReadModel } from '../../application/read-model/intent-cards.read-model';
import { RevocationsReadModel } from '../../application/read-model/revocations.read-model';

export const PROXY_EVENTS_GROUP = Symbol('PROXY_EVENTS_GROUP');

const CARD_TOPICS: string[] = [Topics.IntentCardInstalled.name, Topics.IntentCardDeleted.name];

/**
 * Feeds the proxy's read models: card changes and mandate revocations. Every replica needs every
 * event, so each process has its own consumer group. Applying is idempotent (each model takes
 * only its next version; a revocation is a set insert), and correctness never depends on this
 * consumer: the version board makes a model that missed an event catch up synchronously.
 */
@Injectable()
export class ProxyEventsConsumer implements OnModuleInit {
  private readonly logger = new Logger('ProxyEventsConsumer');

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PROXY_EVENTS_GROUP) private readonly group: string,
    private readonly cards: IntentCardsReadModel,
    private readonly revocations: RevocationsReadModel,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeReadModel(this.bus, {
      group: this.group,
      topics: [...CARD_TOPICS, Topics.MandateRevoked.name],
      apply: (event) => {
        if (CARD_TOPICS.includes(event.type)) this.cards.apply(event.org_id, parseEvent<IntentCardEventV1>(event));
        else this.revocations.apply(event.org_id, parseEvent<MandateEventV1>(event));
      },
      skipped: (event, err) => this.logger.warn(`skipping malformed event ${event.id}: ${err.message}`),
    });
  }
}
