import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { join } from 'node:path';
import type { EventEnvelope } from '@igw/contracts';
import { KafkaEventBus, OutboxRelay } from '@igw/events';
import { startKafkaInstance, waitUntil, type KafkaInstance } from '@igw/testing';
import { openPostgresDatabase, type ServiceDatabase } from './database';
import { migrate } from './migrate';
import { applyOnce, OutboxWriter, sqlExecutor, SqlOutboxSource } from './outbox';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const brokers = (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

const raw = sqlExecutor;

function event(topic: string, note: string): EventEnvelope {
  return {
    id: `evt_${randomBytes(8).toString('hex')}`,
    type: topic,
    org_id: 'org_1',
    occurred_at: new Date().toISOString(),
    schema_version: 1,
    data: { note },
  };
}

const until = (what: string, check: () => Promise<boolean> | boolean, ms = 60_000) => waitUntil(what, check, ms, 100);

describe('transactional outbox on PostgreSQL and Kafka', () => {
  let db: ServiceDatabase;
  const schema = `it_outbox_${randomBytes(4).toString('hex')}`;
  const writer = new OutboxWriter(schema);
  const buses: KafkaEventBus[] = [];
  const relays: OutboxRelay[] = [];
  const newBus = (clientId: string, b = brokers) => {
    const bus = new KafkaEventBus({ brokers: b, clientId, retryBackoffMs: 100, publishTimeoutMs: 5000 });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    db = openPostgresDatabase(url, schema);
    await migrate(db, join(__dirname, 'testing/migrations'));
  });

  // A relay left running drains this schema's outbox into whatever cluster its bus points at:
  // each test stops what it started.
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await Promise.all(buses.splice(0).map((b) => b.stop()));
  });

  afterAll(async () => {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
  });

  it('an event committed with its state change reaches a Kafka consumer; a rolled-back one never does', async () => {
    const topic = `it.outbox.${randomBytes(4).toString('hex')}.v1`;
    const kept = event(topic, 'kept');
    const dropped = event(topic, 'dropped');
    await db.transaction(async (tx) => writer.add(raw(tx), [kept]));
    await db
      .transaction(async (tx) => {
        await writer.add(raw(tx), [dropped]);
        throw new Error('business rule failed after the write');
      })
      .catch(() => undefined);

    const received: EventEnvelope[] = [];
    const consumer = newBus('it-consumer');
    await consumer.subscribe({ group: `g-${topic}`, topics: [topic], handler: async (e) => void received.push(e) });
    await consumer.start();
    const relay = new OutboxRelay(new SqlOutboxSource(db), newBus('it-producer'), { pollMs: 50, name: schema });
    relays.push(relay);
    relay.start();
    await until('the kept event', () => received.some((e) => e.id === kept.id));
    expect(received.find((e) => e.id === kept.id)).toEqual(kept);
    expect(received.some((e) => e.id === dropped.id)).toBe(false);
    expect(await new SqlOutboxSource(db).pending()).toBe(0);
  });

  it('a duplicate delivery is applied once (idempotent consumer)', async () => {
    const topic = `it.dupes.${randomBytes(4).toString('hex')}.v1`;
    const e = event(topic, 'once');
    let deliveries = 0;
    const consumer = newBus('it-dupes');
    await consumer.subscribe({
      group: `g-${topic}`,
      topics: [topic],
      handler: async (env) => {
        deliveries++;
        await db.transaction((tx) =>
          applyOnce(raw(tx), schema, 'it-dupes', env.id, async () => {
            await tx.query(`INSERT INTO "${schema}".effects (event_id, note) VALUES ($1, $2)`, [env.id, 'applied']);
          }),
        );
      },
    });
    await consumer.start();
    const producer = newBus('it-dupes-producer');
    // At-least-once means the same event can arrive twice: publish it twice.
    await producer.publish([e]);
    await producer.publish([e]);
    await until('two deliveries', () => deliveries >= 2);
    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".effects WHERE event_id = $1`, [e.id]);
    expect(rows[0]!.n).toBe(1);
  });

  // Its own broker and its own outbox: a relay on the same outbox but the shared broker (say, one
  // an earlier test left running) would publish the outage event there, away from this consumer.
  describe('with a broker and an outbox the test owns', () => {
    let kafka: KafkaInstance;
    let ownDb: ServiceDatabase;
    const ownSchema = `${schema}_outage`;
    const ownWriter = new OutboxWriter(ownSchema);
    beforeAll(async () => {
      ownDb = openPostgresDatabase(url, ownSchema);
      await migrate(ownDb, join(__dirname, 'testing/migrations'));
      kafka = await startKafkaInstance();
    }, 120_000);
    afterAll(async () => {
      await kafka?.destroy();
      await ownDb.query(`DROP SCHEMA IF EXISTS "${ownSchema}" CASCADE`);
      await ownDb.close();
    });

    it('an event written while Kafka is down arrives after it returns', async () => {
      const topic = `it.outage.${randomBytes(4).toString('hex')}.v1`;
      const own = [kafka.brokers];
      const received: string[] = [];
      const consumer = newBus('it-outage-consumer', own);
      await consumer.subscribe({ group: `g-${topic}`, topics: [topic], handler: async (e) => void received.push(e.id) });
      await consumer.start();
      const relayBus = newBus('it-outage-producer', own);
      const warmup = event(topic, 'before');
      await relayBus.publish([warmup]);
      await until('the warm-up event', () => received.includes(warmup.id));
      // The group resumes from its committed position after the restart, as a running service's
      // group does, rather than rereading the topic from the beginning.
      const admin = new Kafka({ brokers: own, logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      try {
        await until('the warm-up offset committed', async () => {
          const [offsets] = await admin.fetchOffsets({ groupId: `g-${topic}`, topics: [topic] });
          return (offsets?.partitions ?? []).some((p) => Number(p.offset) >= 1);
        });
      } finally {
        await admin.disconnect();
      }

      await kafka.stop();
      const during = event(topic, 'during the outage');
      await ownDb.transaction(async (tx) => ownWriter.add(raw(tx), [during]));
      const relay = new OutboxRelay(new SqlOutboxSource(ownDb), relayBus, { pollMs: 100, name: ownSchema });
      relays.push(relay);
      await expect(relay.flush()).rejects.toBeDefined();
      const [row] = await ownDb.query<{ published_at: Date | null; attempts: number }>(
        `SELECT published_at, attempts FROM "${ownSchema}".outbox_events WHERE id = $1`,
        [during.id],
      );
      expect(row).toMatchObject({ published_at: null });
      expect(row!.attempts).toBeGreaterThanOrEqual(1);

      relay.start();
      await kafka.start();
      // The consumer reconnects with backoff while the broker's JVM starts again.
      await until('the event written during the outage', () => received.includes(during.id), 120_000).catch(async (err) => {
        const [state] = await ownDb.query(`SELECT published_at, attempts, last_error FROM "${ownSchema}".outbox_events WHERE id = $1`, [during.id]);
        throw new Error(`${(err as Error).message}; outbox row: ${JSON.stringify(state)}`);
      });
      await relay.stop();
      const [after] = await ownDb.query<{ published_at: Date | null }>(`SELECT published_at FROM "${ownSchema}".outbox_events WHERE id = $1`, [during.id]);
      expect(after!.published_at).not.toBeNull();
    }, 240_000);
  });
});
