import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@igw/events';
import { DEAD_LETTERS, type SqlDeadLetters } from '@igw/persistence';
import { PUBLIC_TOPICS } from '../../application/webhook-event-types';
import { FanOutEventUseCase } from '../../application/use-cases/fan-out-event.use-case';

export const WEBHOOK_EVENTS_GROUP = Symbol('WEBHOOK_EVENTS_GROUP');

/**
 * Every public event of every service, in one consumer group shared by all dispatcher replicas
 * (each event is fanned out once; a redelivery is harmless, the fan-out is idempotent). A new
 * group starts at the latest offsets; after that it resumes from its commits. A failed
 * fan-out (database down) throws, so the bus delivers the event again; an event whose fan-out
 * keeps failing for another reason is set aside as a dead letter, so it never holds up the events
 * of other orgs behind it.
 */
@Injectable()
export class WebhookEventsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(WEBHOOK_EVENTS_GROUP) private readonly group: string,
    private readonly fanOut: FanOutEventUseCase,
    @Inject(DEAD_LETTERS) private readonly deadLetters: SqlDeadLetters,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({
      group: this.group,
      topics: PUBLIC_TOPICS.map((t) => t.name),
      // A brand-new group does not replay history: a webhook gets what happens after it exists.
      startAt: 'latest',
      // Fan-out does not depend on order and is idempotent: overlap the board reads and inserts.
      concurrency: 32,
      handler: async (event) => {
        await this.fanOut.execute(event);
      },
      onPoison: (event, error) =>
        this.deadLetters.add({
          kind: `event:${this.group}`,
          recordId: event.id,
          orgId: event.org_id,
          reason: String((error as Error)?.message ?? error),
          payload: event,
        }),
    });
  }
}
