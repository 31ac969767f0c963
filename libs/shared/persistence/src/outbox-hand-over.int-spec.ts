import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEnvelope } from '@igw/contracts';
import { InProcessEventBus, OutboxRelay } from '@igw/events';
import { waitUntil } from '@igw/testing';
import { closeEmbeddedDatabase, openEmbeddedDatabase, TransactionTimeoutError, type ServiceDatabase } from './database';
import { migrate, SHARED_MIGRATIONS } from './migrate';
import { handOverCommitted, OutboxWriter, SqlOutboxSource } from './outbox';
import { classifyWriteError } from './unavailable';

const event = (note: string): EventEnvelope => ({
  id: `evt_${randomBytes(8).toString('hex')}`,
  type: 'note.v1',
  org_id: 'org_1',
  occurred_at: new Date().toISOString(),
  schema_version: 1,
  data: { note },
});

/**
 * The embedded outbox's hand-over (PGlite): a group commit's rows reach the bus without being
 * read back, are marked published, and a relay that dies between publishing and marking
 * publishes them again at its next start (at least once), never not at all.
 */
describe('outbox hand-over on PGlite', () => {
  let db: ServiceDatabase;
  const schema = 'it_hand_over';
  const writer = new OutboxWriter(schema);
  const seen: string[] = [];
  const relays: OutboxRelay[] = [];

  const newRelay = async (source: SqlOutboxSource) => {
    const bus = new InProcessEventBus();
    await bus.subscribe({ group: 'g', topics: ['note.v1'], handler: async (e) => void seen.push((e.data as { note: string }).note) });
    await bus.start();
    const relay = new OutboxRelay(source, bus, { pollMs: 50, name: schema, markDelayMs: 20, syncedPollMs: 60_000 });
    relays.push(relay);
    return relay;
  };

  /** A group commit as the decision store writes it: the events in one statement, handed over after it. */
  const commit = async (relay: OutboxRelay, notes: string[]) => {
    const events = notes.map(event);
    const written = await db.commit(writer.insertReturningSql('$1'), [JSON.stringify(events)]);
    handOverCommitted(relay, written, events);
  };

  const unpublished = async () =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}"."outbox_events" WHERE published_at IS NULL`))[0]?.n;

  beforeAll(async () => {
    db = openEmbeddedDatabase(mkdtempSync(join(tmpdir(), 'igw-hand-over-')), schema);
    await db.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await migrate(db, SHARED_MIGRATIONS);
  }, 60_000);

  afterAll(async () => {
    for (const r of relays) await r.stop();
    await closeEmbeddedDatabase();
  });

  it('publishes handed-over rows in order without reading them back, and marks them published', async () => {
    const source = new SqlOutboxSource(db);
    const reads = jest.spyOn(source, 'drain');
    const relay = await newRelay(source);
    relay.start();
    await waitUntil('the relay is in sync', () => (relay as unknown as { synced: boolean }).synced, 10_000, 10);
    const readsInSync = reads.mock.calls.length;
    await commit(relay, ['a1', 'a2']);
    await commit(relay, ['a3']);
    await waitUntil('all three marked', async () => (await unpublished()) === 0 && seen.length === 3, 10_000, 20);
    expect(seen).toEqual(['a1', 'a2', 'a3']);
    expect(reads.mock.calls.length).toBe(readsInSync);
    await relay.stop();
  });

  it('a relay that dies before marking publishes the rows again at its next start (at least once)', async () => {
    seen.length = 0;
    const source = new SqlOutboxSource(db);
    // The mark never lands: the process dies after the bus accepted the events.
    jest.spyOn(source, 'markPublished').mockImplementation(() => new Promise<void>(() => undefined));
    const dying = await newRelay(source);
    dying.start();
    await waitUntil('the relay is in sync', () => (dying as unknown as { synced: boolean }).synced, 10_000, 10);
    await commit(dying, ['b1']);
    await waitUntil('b1 published', () => seen.includes('b1'), 10_000, 10);
    expect(await unpublished()).toBe(1);
    relays.splice(relays.indexOf(dying), 1);

    const next = await newRelay(new SqlOutboxSource(db));
    next.start();
    await waitUntil('b1 published again and marked', async () => (await unpublished()) === 0, 10_000, 20);
    expect(seen).toEqual(['b1', 'b1']);
  });

  it("a group commit waiting behind another caller's transaction is bounded as on PostgreSQL: an outage (503) past its timeoutMs", async () => {
    let release!: () => void;
    const held = db.transaction(() => new Promise<void>((r) => (release = r)));
    while (!release) await new Promise((r) => setTimeout(r, 10));
    const error = await db.commit(writer.insertReturningSql('$1'), [JSON.stringify([event('bounded')])], { timeoutMs: 300 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(classifyWriteError(error)).toBe('outage');
    release();
    await held;
  });
});
