import { InvalidEventError, type EventEnvelope } from '@igw/contracts';
import type { EventBus } from '../ports/event-bus.port';

/** A read model's feed: what it listens to and how it applies one event. */
export interface ReadModelFeed {
  /** The replica's own consumer group: every replica needs every event. */
  group: string;
  topics: string[];
  /** Applies one event; throws InvalidEventError (from parseEvent) for a malformed one. */
  apply: (event: EventEnvelope) => void;
  /** Told of each malformed event, which is skipped. */
  skipped: (event: EventEnvelope, error: InvalidEventError) => void;
}

/**
 * Subscribes an in-memory read model to its events. The group is new at every start and a model
 * that is behind loads a snapshot, so it starts at the latest offsets instead of replaying
 * history. Applying is idempotent (a model takes only its next version), so a redelivery is
 * harmless; a malformed event is skipped, since the version board makes a model that missed one
 * catch up anyway. Any other failure throws, and the bus delivers the event again.
 */
export function subscribeReadModel(bus: EventBus, feed: ReadModelFeed): Promise<void> {
  return bus.subscribe({
    group: feed.group,
    topics: feed.topics,
    startAt: 'latest',
    handler: async (event) => {
      try {
        feed.apply(event);
      } catch (err) {
        if (!(err instanceof InvalidEventError)) throw err;
        feed.skipped(event, err);
      }
    },
  });
}
