import { randomBytes, randomUUID } from 'node:crypto';
import { Topics, type EventEnvelope } from '@igw/contracts';
import { KafkaEventBus, MemoryVersionBoard } from '@igw/events';
import { DependencyUnavailableError, systemClock } from '@igw/kernel';
import { migrate, openPostgresDatabase, SqlDeadLetters, type ServiceDatabase } from '@igw/persistence';
import { waitUntil } from '@igw/testing/unit';
import type { Webhook } from '../../domain';
import { FanOutEventUseCase } from '../../application/use-cases/fan-out-event.use-case';
import { WebhookSubscriptions } from '../../application/read-model/webhook-subscriptions.read-model';
import { WEBHOOK_DISPATCHER_MIGRATIONS } from '../../webhook-dispatcher.module';
import { SqlDeliveryRepository, SqlWebhookRepository } from '../sql/sql-webhook.repository';
import { WebhookEventsConsumer } from './webhook-events.consumer';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const brokers = (process.env.TEST_KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const schema = `it_webhook_events_${randomBytes(4).toString('hex')}`;
// The shared broker keeps topics and their history between runs: a fresh group (it reads each
// public topic from the beginning) and fresh orgs keep this run's assertions to this run's events.
const run = randomUUID().slice(0, 8);
const orgA = `org_wh_a_${run}`;
const orgB = `org_wh_b_${run}`;

const envelope = (type: string, orgId: string, data: unknown): EventEnvelope => ({
  id: `evt_${randomUUID()}`,
  type,
  org_id: orgId,
  occurred_at: new Date().toISOString(),
  schema_version: 1,
  data,
});

function webhook(orgId: string, events: string[]): Webhook {
  const now = new Date();
  return {
    id: `whk_${randomBytes(6).toString('hex')}`,
    orgId,
    url: 'https://hooks.example.com/igw',
    events,
    description: null,
    status: 'active',
    disabledReason: null,
    secrets: [{ id: `whs_${randomBytes(4).toString('hex')}`, sealed: 'sealed', createdAt: now, expiresAt: null }],
    createdAt: now,
    updatedAt: now,
  };
}

const waitFor = (what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> => waitUntil(what, predicate, timeoutMs, 100);

describe('WebhookEventsConsumer (Kafka + PostgreSQL)', () => {
  let db: ServiceDatabase;
  let bus: KafkaEventBus;
  let fanOut: FanOutEventUseCase;
  let nudges = 0;
  /** Event ids the consumer handed to the fan-out, in order (every delivery of a redelivered event too). */
  const handled: string[] = [];
  /** Events whose first fan-out fails (database trouble): the bus must deliver them again. */
  const failOnce = new Set<string>();
  /** Events whose fan-out always fails for a reason that is not an outage (poison). */
  const poison = new Set<string>();
  /** A non-public event: its topic is not subscribed, so it must never reach the fan-out. */
  const internal = envelope(Topics.IntentionCreated.name, orgA, { intention_id: 'int_2' });

  const deliveries = (webhookId: string) =>
    db.query<{ event_id: string; event_type: string; org_id: string; status: string; body: string }>(
      `SELECT event_id, event_type, org_id, status, body FROM "${schema}"."webhook_deliveries" WHERE webhook_id = $1 ORDER BY event_id`,
      [webhookId],
    );

  const hookA = webhook(orgA, ['intention.published', 'decision.made']);
  const hookAOther = webhook(orgA, ['mandate.revoked']);
  const hookB = webhook(orgB, ['intention.published']);

  beforeAll(async () => {
    if (brokers.length === 0) throw new Error('TEST_KAFKA_BROKERS is not set (jest.int.config.js globalSetup sets it)');
    db = openPostgresDatabase(url, schema, 6);
    await migrate(db, WEBHOOK_DISPATCHER_MIGRATIONS);
    const board = new MemoryVersionBoard();
    const webhooks = new SqlWebhookRepository(db, board);
    for (const w of [hookA, hookAOther, hookB]) await webhooks.create(w);

    fanOut = new FanOutEventUseCase(
      new SqlDeliveryRepository(db, board),
      new WebhookSubscriptions(board, webhooks, systemClock),
      { nudge: () => void nudges++ },
      systemClock,
    );
    const execute = fanOut.execute.bind(fanOut);
    // `handled` records an event once its fan-out has finished (events of a partition are handled
    // concurrently, so "handled" must mean "committed", not "started").
    jest.spyOn(fanOut, 'execute').mockImplementation(async (event) => {
      try {
        if (failOnce.delete(event.id)) throw new DependencyUnavailableError('database');
        if (poison.has(event.id)) throw Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' });
        return await execute(event);
      } finally {
        handled.push(event.id);
      }
    });

    bus = new KafkaEventBus({ brokers, clientId: `webhook-events-spec-${run}`, retryBackoffMs: 100 });
    const consumer = new WebhookEventsConsumer(bus, `webhook-events-spec-${run}`, fanOut, new SqlDeadLetters(db));
    await consumer.onModuleInit();
    await bus.start();

    // A new dispatcher group starts at the latest offsets, fixed only once it first fetches: until
    // probes on the partitions used below come through, events published now could be skipped.
    // The probes occurred long before the webhooks existed, so they must create no delivery.
    const probes = new Map<string, string>();
    await waitFor(
      'the consumer group to be in place',
      async () => {
        for (const [topic, org] of [
          [Topics.IntentionPublished.name, orgA],
          [Topics.IntentionPublished.name, orgB],
          [Topics.DecisionMade.name, orgA],
        ] as const) {
          const key = `${topic}|${org}`;
          if (probes.has(key) && handled.includes(probes.get(key)!)) continue;
          const probe = { ...envelope(topic, org, { probe: true }), occurred_at: '2001-01-01T00:00:00.000Z' };
          probes.set(key, probe.id);
          await bus.publish([probe]);
        }
        await new Promise((r) => setTimeout(r, 300));
        return [...probes.values()].every((id) => handled.includes(id));
      },
      90_000,
    );
    for (const w of [hookA, hookAOther, hookB]) expect(await deliveries(w.id)).toEqual([]);
  });

  afterAll(async () => {
    await bus?.stop();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  it('the same public event twice makes one delivery, only for the subscribed webhook of its org', async () => {
    const published = envelope(Topics.IntentionPublished.name, orgA, { intention_id: 'int_1', version: 3 });
    const otherOrg = envelope(Topics.IntentionPublished.name, orgB, { intention_id: 'int_b', version: 1 });

    await bus.publish([published]);
    await bus.publish([published, otherOrg]);
    await bus.publish([internal]);

    await waitFor('every event handled', () => handled.filter((id) => id === published.id).length >= 2 && handled.includes(otherOrg.id));
    // IntentionCreated is not public: the consumer is not even subscribed to its topic.
    expect(handled).not.toContain(internal.id);

    expect(await deliveries(hookA.id)).toEqual([
      {
        event_id: published.id,
        event_type: 'intention.published',
        org_id: orgA,
        status: 'pending',
        body: JSON.stringify({ type: 'intention.published', timestamp: published.occurred_at, data: published.data }),
      },
    ]);
    expect(await deliveries(hookAOther.id)).toEqual([]);
    expect((await deliveries(hookB.id)).map((d) => [d.event_id, d.org_id])).toEqual([[otherOrg.id, orgB]]);
    expect(nudges).toBeGreaterThanOrEqual(2);
  });

  it('a fan-out that fails is delivered again by the bus, and still makes exactly one delivery', async () => {
    const decided = envelope(Topics.DecisionMade.name, orgA, { decision_id: 'dec_1', kind: 'allow' });
    failOnce.add(decided.id);
    await bus.publish([decided]);
    await waitFor('the delivery', async () => (await deliveries(hookA.id)).some((d) => d.event_id === decided.id));
    await new Promise((r) => setTimeout(r, 500));
    expect(handled.filter((id) => id === decided.id)).toHaveLength(2);
    const rows = (await deliveries(hookA.id)).filter((d) => d.event_id === decided.id);
    expect(rows).toEqual([expect.objectContaining({ event_type: 'decision.made', org_id: orgA })]);
    expect(await deliveries(hookB.id)).toHaveLength(1);
    expect(handled).not.toContain(internal.id);
  });

  it('an event whose fan-out keeps failing (not an outage) is set aside after 5 attempts; the events behind it in its partition go on', async () => {
    const bad = envelope(Topics.DecisionMade.name, orgA, { decision_id: 'dec_poison', kind: 'allow' });
    const next = envelope(Topics.DecisionMade.name, orgA, { decision_id: 'dec_after', kind: 'allow' });
    poison.add(bad.id);
    await bus.publish([bad, next]);
    const lettersOf = (id: string) =>
      db.query<{ kind: string; record_id: string; org_id: string; reason: string; payload: string }>(
        `SELECT kind, record_id, org_id, reason, payload FROM "${schema}"."dead_letters" WHERE record_id = $1`,
        [id],
      );
    await waitFor('the poison set aside', async () => (await lettersOf(bad.id)).length > 0, 30_000);
    expect(handled.filter((id) => id === bad.id)).toHaveLength(5);
    // The partition moved on: what was behind it, and what comes after, is delivered.
    const later = envelope(Topics.DecisionMade.name, orgA, { decision_id: 'dec_later', kind: 'allow' });
    await bus.publish([later]);
    await waitFor('the events behind the poison', async () => {
      const ids = (await deliveries(hookA.id)).map((d) => d.event_id);
      return ids.includes(next.id) && ids.includes(later.id);
    });
    expect((await deliveries(hookA.id)).some((d) => d.event_id === bad.id)).toBe(false);
    const letters = await lettersOf(bad.id);
    expect(letters).toEqual([
      { kind: `event:webhook-events-spec-${run}`, record_id: bad.id, org_id: orgA, reason: 'invalid input syntax for type json', payload: JSON.stringify(bad) },
    ]);
  });
});
