import { DependencyUnavailableError } from '@igw/kernel';
import { envelope } from '../../envelope';
import { InProcessEventBus } from './in-process-event-bus';

const event = (n: number) => envelope({ name: 'test.thing.happened.v1', version: 1 }, 'org_a', { n }, new Date());

describe('InProcessEventBus', () => {
  it('publish resolves once every subscribed group handled the events, in order', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe({ group: 'a', topics: ['test.thing.happened.v1'], handler: async (e) => void seen.push(`a:${(e.data as { n: number }).n}`) });
    await bus.subscribe({ group: 'b', topics: ['test.thing.happened.v1'], handler: async (e) => void seen.push(`b:${(e.data as { n: number }).n}`) });
    await bus.subscribe({ group: 'c', topics: ['other.v1'], handler: async () => void seen.push('c') });
    await bus.publish([event(1), event(2)]);
    expect(seen).toEqual(['a:1', 'b:1', 'a:2', 'b:2']);
  });

  it('an outage rejects publish after the attempts (the outbox row stays and is tried again), never set aside', async () => {
    const onPoison = jest.fn(async () => undefined);
    const bus = new InProcessEventBus({ maxAttempts: 2 });
    let calls = 0;
    await bus.subscribe({
      group: 'g',
      topics: ['test.thing.happened.v1'],
      handler: async () => {
        calls++;
        throw new DependencyUnavailableError('database');
      },
      onPoison,
    });
    await expect(bus.publish([event(1)])).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(calls).toBe(2);
    expect(onPoison).not.toHaveBeenCalled();
  });

  it('an event a handler keeps refusing (not an outage) goes to onPoison and the events after it are handled', async () => {
    const poisoned: unknown[] = [];
    const handled: number[] = [];
    const bus = new InProcessEventBus({ maxAttempts: 3 });
    await bus.subscribe({
      group: 'g',
      topics: ['test.thing.happened.v1'],
      handler: async (e) => {
        const n = (e.data as { n: number }).n;
        if (n === 2) throw new Error('invalid input syntax for type json');
        handled.push(n);
      },
      onPoison: async (e, err) => void poisoned.push([(e.data as { n: number }).n, (err as Error).message]),
    });
    await bus.publish([event(1), event(2), event(3)]);
    expect(handled).toEqual([1, 3]);
    expect(poisoned).toEqual([[2, 'invalid input syntax for type json']]);
  });

  it('without onPoison, or when recording it fails, the failure rejects publish as before', async () => {
    const failing = async () => {
      throw new Error('bug');
    };
    const plain = new InProcessEventBus({ maxAttempts: 1 });
    await plain.subscribe({ group: 'g', topics: ['test.thing.happened.v1'], handler: failing });
    await expect(plain.publish([event(1)])).rejects.toThrow('bug');

    const unrecordable = new InProcessEventBus({ maxAttempts: 1 });
    await unrecordable.subscribe({
      group: 'g',
      topics: ['test.thing.happened.v1'],
      handler: failing,
      onPoison: async () => {
        throw new DependencyUnavailableError('database');
      },
    });
    await expect(unrecordable.publish([event(1)])).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('isTransient decides what an outage is', async () => {
    const onPoison = jest.fn(async () => undefined);
    const bus = new InProcessEventBus({ maxAttempts: 1, isTransient: (err) => (err as Error).message === 'redis down' });
    await bus.subscribe({
      group: 'g',
      topics: ['test.thing.happened.v1'],
      handler: async () => {
        throw new Error('redis down');
      },
      onPoison,
    });
    await expect(bus.publish([event(1)])).rejects.toThrow('redis down');
    expect(onPoison).not.toHaveBeenCalled();
  });
});
