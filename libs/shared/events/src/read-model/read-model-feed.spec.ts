import { InvalidEventError, type EventEnvelope } from '@igw/contracts';
import type { EventBus, Subscription } from '../ports/event-bus.port';
import { subscribeReadModel } from './read-model-feed';

const event = (id: string): EventEnvelope => ({ id, type: 'policy.intention.published.v1', org_id: 'org_a', data: {} }) as unknown as EventEnvelope;

/** Keeps the subscription so a spec can hand events to its handler. */
function recordingBus(): EventBus & { subscription?: Subscription } {
  const bus: EventBus & { subscription?: Subscription } = {
    publish: async () => undefined,
    subscribe: async (s) => {
      bus.subscription = s;
    },
    start: async () => undefined,
    stop: async () => undefined,
    healthy: async () => true,
  };
  return bus;
}

describe('subscribeReadModel', () => {
  it('subscribes the group to its topics from the latest offsets and applies each event', async () => {
    const bus = recordingBus();
    const applied: string[] = [];
    await subscribeReadModel(bus, { group: 'g-1', topics: ['a', 'b'], apply: (e) => void applied.push(e.id), skipped: () => undefined });
    expect(bus.subscription).toMatchObject({ group: 'g-1', topics: ['a', 'b'], startAt: 'latest' });
    await bus.subscription!.handler(event('evt_1'));
    expect(applied).toEqual(['evt_1']);
  });

  it('skips a malformed event (InvalidEventError), telling `skipped`; any other failure throws for a redelivery', async () => {
    const bus = recordingBus();
    const skipped: string[] = [];
    await subscribeReadModel(bus, {
      group: 'g-2',
      topics: ['a'],
      apply: (e) => {
        throw e.id === 'evt_bad' ? new InvalidEventError('bad payload') : new Error('model broken');
      },
      skipped: (e, err) => void skipped.push(`${e.id}: ${err.message}`),
    });
    await expect(bus.subscription!.handler(event('evt_bad'))).resolves.toBeUndefined();
    expect(skipped).toEqual(['evt_bad: bad payload']);
    await expect(bus.subscription!.handler(event('evt_x'))).rejects.toThrow('model broken');
  });
});
