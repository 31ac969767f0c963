import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@igw/contracts';
import { startKafkaInstance, type KafkaInstance } from '@igw/testing';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaEventBus } from './kafka-event-bus';

const brokers = (process.env.TEST_KAFKA_BROKERS ?? '').split(',').filter(Boolean);
// The shared broker keeps topics between runs: every run uses its own topic and group names.
const run = randomUUID().slice(0, 8);
let seq = 0;
const topic = () => `test.kafka_bus_${run}.t${++seq}.v1`;
const groupName = (name: string) => `kafka-bus-spec-${run}-${name}`;

function event(type: string, orgId = 'org_1', data: unknown = { n: seq }): EventEnvelope {
  return { id: `evt_${randomUUID()}`, type, org_id: orgId, occurred_at: new Date().toISOString(), schema_version: 1, data };
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A little over the bus's 1 s health cache.
const HEALTH_CACHE_MS = 1100;

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KafkaEventBus', () => {
  const buses: KafkaEventBus[] = [];
  const newBus = (brokerList = brokers, extra: Partial<ConstructorParameters<typeof KafkaEventBus>[0]> = {}) => {
    const bus = new KafkaEventBus({ brokers: brokerList, clientId: `kafka-bus-spec-${run}`, ...extra });
    buses.push(bus);
    return bus;
  };

  beforeAll(() => {
    if (brokers.length === 0) throw new Error('TEST_KAFKA_BROKERS is not set (jest.int.config.js globalSetup sets it)');
  });

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.stop()));
  });

  it('reports a group lag from the brokers: events published and not yet handled, 0 once they are', async () => {
    const t = topic();
    const bus = newBus();
    const group = groupName('lag');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    await bus.subscribe({
      group,
      topics: [t],
      handler: async (e) => {
        await gate;
        handled.push(e.id);
      },
    });
    await bus.start();
    await bus.publish([event(t), event(t), event(t), event(t)]);
    // The first event is held by its handler: nothing is committed, four are waiting.
    let lag: Array<{ group: string; lag: number }> = [];
    const deadline = Date.now() + 15_000;
    do {
      lag = await bus.consumerLag();
      if (lag.find((l) => l.group === group)?.lag === 4) break;
      await settle(200);
    } while (Date.now() < deadline);
    expect(lag).toEqual([{ group, lag: 4 }]);

    release();
    await waitFor('every event handled', () => handled.length === 4);
    const settled = Date.now() + 15_000;
    do {
      lag = await bus.consumerLag();
      if (lag[0]?.lag === 0) break;
      await settle(200);
    } while (Date.now() < settled);
    expect(lag).toEqual([{ group, lag: 0 }]);
  });

  it('delivers exactly the published envelope, keyed by org, with an event-type header', async () => {
    const t = topic();
    const bus = newBus();
    const received: EventEnvelope[] = [];
    await bus.subscribe({ group: groupName('exact'), topics: [t], handler: async (e) => void received.push(e) });
    await bus.start();

    const sent = event(t, 'org_exact', { nested: { list: [1, 'two', null] }, flag: true });
    await bus.publish([sent]);

    await waitFor('delivery', () => received.length >= 1);
    await settle(500);
    expect(received).toEqual([sent]);

    // The wire format other consumers rely on.
    const raw = new Kafka({ clientId: 'raw', brokers, logLevel: logLevel.NOTHING }).consumer({ groupId: groupName('raw') });
    await raw.connect();
    await raw.subscribe({ topic: t, fromBeginning: true });
    const message = await new Promise<{ key: string; type: string; value: unknown }>((resolve) => {
      void raw.run({
        eachMessage: async ({ message: m }) => resolve({ key: String(m.key), type: String(m.headers?.['event-type']), value: JSON.parse(String(m.value)) }),
      });
    });
    await raw.disconnect();
    expect(message).toEqual({ key: 'org_exact', type: t, value: sent });
  });

  it('uses the key function when given one', async () => {
    const t = topic();
    const bus = newBus();
    const sent = event(t, 'org_key');
    await bus.publish([sent], () => 'custom-key');
    const raw = new Kafka({ clientId: 'raw', brokers, logLevel: logLevel.NOTHING }).consumer({ groupId: groupName('key') });
    await raw.connect();
    await raw.subscribe({ topic: t, fromBeginning: true });
    const key = await new Promise<string>((resolve) => {
      void raw.run({ eachMessage: async ({ message: m }) => resolve(String(m.key)) });
    });
    await raw.disconnect();
    expect(key).toBe('custom-key');
  });

  it('gives every consumer group its own copy', async () => {
    const t = topic();
    const bus = newBus();
    const a: EventEnvelope[] = [];
    const b: EventEnvelope[] = [];
    await bus.subscribe({ group: groupName('a'), topics: [t], handler: async (e) => void a.push(e) });
    await bus.subscribe({ group: groupName('b'), topics: [t], handler: async (e) => void b.push(e) });
    await bus.start();

    const sent = [event(t), event(t, 'org_2')];
    await bus.publish(sent);

    await waitFor('both groups', () => a.length >= 2 && b.length >= 2);
    await settle(500);
    const ids = (list: EventEnvelope[]) => list.map((e) => e.id).sort();
    expect(ids(a)).toEqual(ids(sent));
    expect(ids(b)).toEqual(ids(sent));
  });

  it('delivers an event again when its handler throws, and holds back the events behind it', async () => {
    const t = topic();
    const bus = newBus();
    const attempts: string[] = [];
    let failed = false;
    const first = event(t, 'org_retry');
    const second = event(t, 'org_retry'); // same key: same partition, behind `first`
    await bus.subscribe({
      group: groupName('retry'),
      topics: [t],
      handler: async (e) => {
        attempts.push(e.id);
        if (e.id === first.id && !failed) {
          failed = true;
          throw new Error('transient failure');
        }
      },
    });
    await bus.start();
    await bus.publish([first, second]);

    await waitFor('redelivery', () => attempts.length >= 3);
    await settle(500);
    expect(attempts).toEqual([first.id, first.id, second.id]);
  });

  it('with concurrency, handles several events of a partition at once and redelivers from the first failure', async () => {
    const t = topic();
    const bus = newBus(brokers, { retryBackoffMs: 100 });
    const seen: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let failOnce = true;
    const events = Array.from({ length: 40 }, () => event(t, 'org_conc'));
    await bus.subscribe({
      group: groupName('concurrency'),
      topics: [t],
      concurrency: 8,
      handler: async (e) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await settle(20);
        inFlight--;
        if (e.id === events[13]!.id && failOnce) {
          failOnce = false;
          throw new Error('transient');
        }
        seen.push(e.id);
      },
    });
    await bus.start();
    await bus.publish(events);
    await waitFor('every event handled', () => events.every((e) => seen.includes(e.id)));
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(8);
    // The failed one came again; events after it in its chunk may have been handled twice (idempotent handlers).
    expect(seen.filter((id) => id === events[13]!.id)).toHaveLength(1);
    expect(new Set(seen).size).toBe(40);
  });

  it('resumes delivery where the group left off after a restart (commits only handled events)', async () => {
    const t = topic();
    const group = groupName('resume');
    const seen: string[] = [];
    const one = newBus();
    await one.subscribe({ group, topics: [t], handler: async (e) => void seen.push(e.id) });
    await one.start();
    const before = event(t);
    await one.publish([before]);
    await waitFor('first delivery', () => seen.length >= 1);
    await one.stop();

    const after = event(t);
    const two = newBus();
    await two.publish([after]);
    await two.subscribe({ group, topics: [t], handler: async (e) => void seen.push(e.id) });
    await two.start();
    await waitFor('second delivery', () => seen.includes(after.id));
    await settle(500);
    expect(seen).toEqual([before.id, after.id]);
  });

  describe('with a broker that goes away', () => {
    let kafka: KafkaInstance;

    beforeAll(async () => {
      kafka = await startKafkaInstance();
    });

    afterAll(async () => {
      await kafka?.destroy();
    });

    it('rejects publish while the broker is down, then publishes and delivers once it is back', async () => {
      const t = topic();
      // A short session lets the group drop the member that died with the broker sooner.
      const bus = newBus([kafka.brokers], { sessionTimeoutMs: 3000 });
      const received: EventEnvelope[] = [];
      await bus.subscribe({ group: groupName('outage'), topics: [t], handler: async (e) => void received.push(e) });
      await bus.start();
      const early = event(t);
      await bus.publish([early]);
      await waitFor('delivery before the outage', () => received.length >= 1);
      expect(await bus.healthy()).toBe(true);

      await kafka.stop();
      await settle(HEALTH_CACHE_MS);
      expect(await bus.healthy()).toBe(false);
      const started = Date.now();
      await expect(bus.publish([event(t)])).rejects.toThrow();
      const rejectedAfterMs = Date.now() - started;
      expect(rejectedAfterMs).toBeLessThan(15_000);

      await kafka.start();
      const late = event(t, 'org_late');
      await bus.publish([late]);
      await settle(HEALTH_CACHE_MS);
      expect(await bus.healthy()).toBe(true);
      await waitFor('delivery after the outage', () => received.some((e) => e.id === late.id), 60_000);
      expect(received.find((e) => e.id === late.id)).toEqual(late);
      // The rejected event may or may not have landed (at-least-once); the early one is not redelivered
      // unless its commit was lost, so only assert on what matters: nothing handled was lost.
      expect(received.map((e) => e.id)).toContain(early.id);
    });

    it('stops promptly while the broker is down and leaves no reconnect loop behind', async () => {
      const t = topic();
      let stoppedAt = Infinity;
      const lateLogs: string[] = [];
      const record = (_: object, msg: string) => {
        if (Date.now() > stoppedAt) lateLogs.push(msg);
      };
      const bus = newBus([kafka.brokers], { logger: { warn: record, error: record } });
      await bus.subscribe({ group: groupName('stop-down'), topics: [t], handler: async () => undefined });
      await bus.start();
      await bus.publish([event(t)]);

      await kafka.stop();
      const started = Date.now();
      await bus.stop();
      stoppedAt = Date.now();
      expect(stoppedAt - started).toBeLessThan(15_000);
      // kafkajs used to keep restarting a crashed consumer after disconnect(), every ~2 s.
      await settle(8000);
      expect(lateLogs).toEqual([]);
    });
  });
});
