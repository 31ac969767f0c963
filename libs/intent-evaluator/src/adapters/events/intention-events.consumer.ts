import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { parseEvent, Topics, type IntentionEventV1, type IntentionExampleEventV1 } from '@igw/contracts';
import { EVENT_BUS, subscribeReadModel, type EventBus } from '@igw/events';
import { ActiveIntentionsReadModel } from '../../application/read-model/active-intentions.read-model';

export const INTENTION_EVENTS_GROUP = Symbol('INTENTION_EVENTS_GROUP');

export const INTENTION_TOPICS = [Topics.IntentionCreated.name, Topics.IntentionPublished.name, Topics.IntentionArchived.name, Topics.IntentionUpdated.name];
/** Examples share the intentions counter, so the same read model applies them in order. */
export const INTENTION_EXAMPLE_TOPICS = [Topics.IntentionExampleAdded.name, Topics.IntentionExampleRemoved.name];
const EXAMPLE_TOPICS: ReadonlySet<string> = new Set(INTENTION_EXAMPLE_TOPICS);

/**
 * Feeds the read model from policy-registry events so a publish or archive costs one in-memory
 * step instead of a registry snapshot. Every replica needs every event, so each process uses its
 * own consumer group. Applying is idempotent (the model takes only the next version), so
 * redelivery is harmless; a malformed event is skipped, since the version board makes the next
 * evaluation refresh from the registry anyway — correctness never depends on this consumer.
 */
@Injectable()
export class IntentionEventsConsumer implements OnModuleInit {
  private readonly logger = new Logger('IntentionEventsConsumer');

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(INTENTION_EVENTS_GROUP) private readonly group: string,
    private readonly readModel: ActiveIntentionsReadModel,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeReadModel(this.bus, {
      group: this.group,
      topics: [...INTENTION_TOPICS, ...INTENTION_EXAMPLE_TOPICS],
      apply: (event) => {
        if (EXAMPLE_TOPICS.has(event.type)) this.readModel.applyExample(event.org_id, parseEvent<IntentionExampleEventV1>(event));
        else this.readModel.apply(event.org_id, parseEvent<IntentionEventV1>(event));
      },
      skipped: (event, err) => this.logger.warn(`skipping malformed intention event ${event.id}: ${err.message}`),
    });
  }
}
