import type { EventEnvelope } from '@igw/contracts';
import { InProcessEventBus } from '../adapters/in-process/in-process-event-bus';
import { OutboxRelay, type OutboxRowLike, type OutboxSource } from './outbox-relay';

const ev = (i: number): EventEnvelope => ({ id: `e${i}`, type: 't.v1', org_id: 'o', occurred_at: new Date(0).toISOString(), schema_version: 1, data: { i } });

/** Rows stay until publish succeeded, as in the SQL outbox. */
class FakeOutbox implements OutboxSource {
  rows: OutboxRowLike[] = [];
  async drain(limit: number, publish: (rows: OutboxRowLike[]) => Promise<void>) {
    const batch = this.rows.slice(0, limit);
    if (batch.length === 0) return 0;
    await publish(batch);
    this.rows = this.rows.slice(batch.length);
    return batch.length;
  }
}

describe('OutboxRelay', () => {
  it('publishes committed rows in order and empties the outbox', async () => {
    const outbox = new FakeOutbox();
    outbox.rows = [1, 2, 3].map((i) => ({ id: `e${i}`, key: 'o', envelope: ev(i) }));
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe({ group: 'g', topics: ['t.v1'], handler: async (e) => void seen.push(e.id) });
    await bus.start();
    const relay = new OutboxRelay(outbox, bus, { pollMs: 10, batchSize: 2, name: 't' });
    await relay.flush();
    expect(seen).toEqual(['e1', 'e2', 'e3']);
    expect(outbox.rows).toHaveLength(0);
  });

  it('keeps rows while the bus refuses them and delivers them once it accepts', async () => {
    const outbox = new FakeOutbox();
    outbox.rows = [{ id: 'e1', key: 'o', envelope: ev(1) }];
    let down = true;
    const seen: string[] = [];
    const bus = new InProcessEventBus({ maxAttempts: 1 });
    await bus.subscribe({
      group: 'g',
      topics: ['t.v1'],
      handler: async (e) => {
        if (down) throw new Error('down');
        seen.push(e.id);
      },
    });
    const relay = new OutboxRelay(outbox, bus, { pollMs: 5, name: 't' });
    await expect(relay.flush()).rejects.toThrow('down');
    expect(outbox.rows).toHaveLength(1);
    relay.start();
    down = false;
    relay.nudge();
    for (let i = 0; i < 100 && outbox.rows.length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    await relay.stop();
    expect(seen).toEqual(['e1']);
    expect(outbox.rows).toHaveLength(0);
  });

  it('removes long-published rows on its purge schedule', async () => {
    const outbox = new FakeOutbox();
    const purged: number[] = [];
    Object.assign(outbox, { purgePublished: async (hours: number) => void purged.push(hours) });
    const relay = new OutboxRelay(outbox, new InProcessEventBus(), { pollMs: 1000, name: 't', purgeEveryMs: 10, keepHours: 24 });
    relay.start();
    await new Promise((r) => setTimeout(r, 60));
    await relay.stop();
    expect(purged.length).toBeGreaterThan(0);
    expect(purged[0]).toBe(24);
  });
});
