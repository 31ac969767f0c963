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

/** An outbox table as PGlite holds it: rows by seq, published or not; this relay is its only reader. */
class ExclusiveOutbox implements OutboxSource {
  readonly exclusive = true;
  rows: { seq: string; id: string; key: string; envelope: EventEnvelope; published: boolean }[] = [];
  reads = 0;
  marks: string[][] = [];
  failMarks = false;
  private next = 1;

  /** A commit of this process: its rows, as the writer hands them over. */
  commit(...ids: number[]) {
    const added = ids.map((i) => ({ seq: String(this.next++), id: `e${i}`, key: 'o', envelope: ev(i), published: false }));
    this.rows.push(...added);
    return added.map(({ published: _p, ...row }) => row);
  }

  async drain(limit: number, publish: (rows: OutboxRowLike[]) => Promise<void>) {
    this.reads++;
    const batch = this.rows.filter((r) => !r.published).slice(0, limit);
    if (batch.length === 0) return 0;
    await publish(batch);
    for (const r of batch) r.published = true;
    return batch.length;
  }

  async markPublished(seqs: readonly string[]) {
    if (this.failMarks) throw new Error('database down');
    this.marks.push([...seqs]);
    for (const r of this.rows) if (seqs.includes(r.seq)) r.published = true;
  }
}

const until = async (test: () => boolean) => {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('OutboxRelay hand-over (exclusive outbox)', () => {
  async function relayOn(outbox: OutboxSource, options: { fail?: () => boolean } = {}) {
    const bus = new InProcessEventBus({ maxAttempts: 1 });
    const seen: string[] = [];
    await bus.subscribe({
      group: 'g',
      topics: ['t.v1'],
      handler: async (e) => {
        if (options.fail?.()) throw new Error('bus down');
        seen.push(e.id);
      },
    });
    const relay = new OutboxRelay(outbox, bus, { pollMs: 10_000, name: 't', markDelayMs: 20, syncedPollMs: 10_000 });
    return { relay, seen };
  }

  it('publishes rows handed over in sync without reading them back, and marks them together', async () => {
    const outbox = new ExclusiveOutbox();
    const { relay, seen } = await relayOn(outbox);
    relay.start();
    await until(() => outbox.reads > 0);
    await until(() => (relay as unknown as { synced: boolean }).synced);
    const readsInSync = outbox.reads;
    relay.handOver(outbox.commit(1, 2));
    relay.handOver(outbox.commit(3));
    await until(() => outbox.marks.length > 0);
    expect(seen).toEqual(['e1', 'e2', 'e3']);
    expect(outbox.reads).toBe(readsInSync);
    expect(outbox.marks.flat()).toEqual(['1', '2', '3']);
    expect(outbox.rows.every((r) => r.published)).toBe(true);
    await relay.stop();
  });

  it('reads the table again after a plain nudge, and publishes each row once', async () => {
    const outbox = new ExclusiveOutbox();
    const { relay, seen } = await relayOn(outbox);
    relay.start();
    await until(() => (relay as unknown as { synced: boolean }).synced);
    relay.handOver(outbox.commit(1));
    // Another writer of the schema (a Prisma transaction) only nudges; its row is behind e1.
    outbox.commit(2);
    relay.nudge();
    relay.handOver(outbox.commit(3));
    await until(() => seen.length >= 3);
    await relay.flush();
    expect(seen).toEqual(['e1', 'e2', 'e3']);
    expect(outbox.rows.every((r) => r.published)).toBe(true);
    await relay.stop();
  });

  it('leaves rows it could not publish to the table, and publishes them once the bus is back', async () => {
    const outbox = new ExclusiveOutbox();
    let down = false;
    const { relay, seen } = await relayOn(outbox, { fail: () => down });
    relay.start();
    await until(() => (relay as unknown as { synced: boolean }).synced);
    down = true;
    relay.handOver(outbox.commit(1));
    await until(() => (relay as unknown as { failures: number }).failures > 0);
    expect(outbox.rows[0]?.published).toBe(false);
    // Out of sync now: this one is read from the table too, after e1.
    relay.handOver(outbox.commit(2));
    down = false;
    await until(() => seen.length >= 2);
    expect(seen).toEqual(['e1', 'e2']);
    await relay.stop();
  });

  it('never reads back a row whose mark failed: the scan waits for the mark', async () => {
    const outbox = new ExclusiveOutbox();
    const { relay, seen } = await relayOn(outbox);
    relay.start();
    await until(() => (relay as unknown as { synced: boolean }).synced);
    outbox.failMarks = true;
    relay.handOver(outbox.commit(1));
    await until(() => seen.length === 1);
    relay.nudge();
    await expect(relay.flush()).rejects.toThrow('database down');
    outbox.failMarks = false;
    await relay.flush();
    expect(seen).toEqual(['e1']);
    expect(outbox.marks.flat()).toEqual(['1']);
    await relay.stop();
  });

  it('treats a hand-over as a nudge when the outbox has other readers (PostgreSQL)', async () => {
    const outbox = new ExclusiveOutbox();
    Object.defineProperty(outbox, 'exclusive', { value: false });
    const { relay, seen } = await relayOn(outbox);
    relay.start();
    await until(() => outbox.reads > 0);
    const before = outbox.reads;
    relay.handOver(outbox.commit(1));
    await until(() => seen.length === 1);
    expect(outbox.reads).toBeGreaterThan(before);
    expect(outbox.marks).toEqual([]);
    await relay.stop();
  });
});
