import { randomBytes } from 'node:crypto';
import { DependencyUnavailableError, newId, RecordRefusedError, toPage } from '@igw/kernel';
import { openPostgresDatabase, SqlDeadLetters, type ServiceDatabase } from '@igw/persistence';
import { TEST_DATABASE_URL, DEAD_DATABASE_URL, dropTestSchema, openMigratedSchema, testSchemaName, closeQuietly, readOutbox } from '@igw/persistence/testing';
import { parseEvent, Topics, type IntentEvaluatedV1 } from '@igw/contracts';
import { parseHistoryQuery } from '../../domain/history/history-query';
import { toIntentEvaluatedV1, type IntentEventRecord } from '../../application/ports/intent-event.repository.port';
import { createEvaluatorPrisma, EVALUATOR_MIGRATIONS, type EvaluatorPrisma } from './evaluator-prisma.client';
import { INTENT_EVENT_BATCH_MAX, PrismaIntentEventStore } from './prisma-intent-event.store';
import { SqlKeptCalls } from './sql-kept-calls';
import { StatCountsTable } from '@igw/persistence';
import { ReadEvaluationStatsUseCase } from '../../application/use-cases/read-evaluation-stats.use-case';

const schema = testSchemaName('evaluator');

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

let seq = 0;
function intentEvent(orgId: string, extra: Partial<IntentEventRecord> = {}): IntentEventRecord {
  seq++;
  return {
    id: newId('iev'),
    orgId,
    outcome: 'allowed',
    intentLabel: 'crm_lookup',
    intentClass: 'lookup',
    confidence: 0.8731,
    toolName: `crm.lookup_${seq}`,
    userId: 'u_1',
    sessionId: 's_1',
    conversationId: null,
    shadowMode: false,
    policyId: 'int_crm@3',
    approvalRequestId: null,
    dataElements: ['crm:customers.email', 'crm:customers.name'],
    processingTimeMs: 3,
    createdAt: new Date(T0 + seq),
    evidence: {
      classification_method: 'lexical',
      evaluation_layers_consulted: ['lexical'],
      certain: false,
      confidence: 0.8731,
      supporting_evidence: [
        { intent_label: 'crm_lookup', intention_id: 'int_crm', intent_class: 'lookup', score: 7.25, relative_score: 0.61, matched_terms: ['crm', 'lookup'] },
      ],
      schema_version: 1,
    },
    grantJti: `jti_${seq}`,
    call: null,
    ...extra,
  };
}

/** Instruments a store: the commits (one statement each) it ran on its database and the size of each batch it tried. */
function instrument(db: ServiceDatabase, store: PrismaIntentEventStore) {
  const transactions = jest.spyOn(db, 'commit');
  const writes = jest.spyOn(store as unknown as { batchStatement: (events: IntentEventRecord[]) => unknown }, 'batchStatement');
  return {
    transactions: () => transactions.mock.calls.length,
    batchSizes: () => writes.mock.calls.map(([events]) => events.length),
    restore: () => (transactions.mockRestore(), writes.mockRestore()),
  };
}

describe('PrismaIntentEventStore (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let prisma: EvaluatorPrisma;
  let store: PrismaIntentEventStore;
  let nudges = 0;
  const others: { db: ServiceDatabase; prisma: EvaluatorPrisma }[] = [];

  const rowIds = async (orgId: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM "${schema}"."intent_events" WHERE org_id = $1`, [orgId])).map((r) => r.id);
  const outbox = (orgId: string) => readOutbox<IntentEvaluatedV1>(db, orgId);
  /** Walks every page of the org's history through cursors, as the HTTP route will. */
  const walk = async (orgId: string, query: { limit: string; outcome?: string; since?: string }, between?: () => Promise<void>) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const q = parseHistoryQuery({ ...query, cursor });
      const page = toPage(await store.page(orgId, q), q.limit);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
      await between?.();
    } while (cursor);
    return seen;
  };
  /** Store over a database nobody can use, plus its own instrumentation. */
  const otherStore = async (other: ServiceDatabase) => {
    const otherPrisma = await createEvaluatorPrisma(other);
    others.push({ db: other, prisma: otherPrisma });
    const s = new PrismaIntentEventStore(otherPrisma, other, { nudge: () => undefined }, new SqlDeadLetters(other));
    return { store: s, probe: instrument(other, s) };
  };

  beforeAll(async () => {
    db = await openMigratedSchema(schema, EVALUATOR_MIGRATIONS, 8);
    prisma = await createEvaluatorPrisma(db);
    store = new PrismaIntentEventStore(prisma, db, { nudge: () => nudges++ }, new SqlDeadLetters(db));
  });

  afterAll(async () => {
    await store?.drain();
    await prisma?.$disconnect();
    await closeQuietly(others);
    await dropTestSchema(db);
  });

  it('migrates the intent_events table with its history indexes next to the outbox tables', async () => {
    const tables = await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [
      schema,
    ]);
    expect(tables.map((t) => t.table_name)).toEqual([
      '_prisma_migrations',
      'dead_letters',
      'intent_calls',
      'intent_events',
      'outbox_events',
      'processed_events',
      'stat_counts',
      'stat_hours_by_day',
      'stat_rollup_mark',
    ]);
    const indexes = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'intent_events' ORDER BY indexname`,
      [schema],
    );
    expect(indexes.map((i) => i.indexdef.replace(/^.* USING /, ''))).toEqual([
      'btree (org_id, created_at DESC, id DESC)',
      'btree (org_id, outcome, created_at DESC, id DESC)',
      'btree (id)',
    ]);
    const [grantJti] = await db.query<{ is_nullable: string; data_type: string }>(
      `SELECT is_nullable, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'intent_events' AND column_name = 'grant_jti'`,
      [schema],
    );
    expect(grantJti).toEqual({ is_nullable: 'YES', data_type: 'text' });
  });

  it('a lone record is committed at once, in a transaction of its own, and reads back field for field', async () => {
    const probe = instrument(db, store);
    const before = nudges;
    const e = intentEvent('org_one', { conversationId: 'c_9', approvalRequestId: 'apr_1', shadowMode: true, outcome: 'shadow_denied', grantJti: null });
    await store.record(e);
    expect(probe.batchSizes()).toEqual([1]);
    expect(probe.transactions()).toBe(1);
    expect(nudges - before).toBe(1);
    expect(await store.page('org_one', { limit: 10 })).toEqual([e]);
    probe.restore();
  });

  it('500 concurrent records: one multi-row transaction, each resolving only once its row and outbox row are committed', async () => {
    const org = 'org_burst';
    const probe = instrument(db, store);
    const before = nudges;
    const events = Array.from({ length: 500 }, () => intentEvent(org));
    // Read from another connection the moment each record resolves: the commit must be visible.
    const visible = await Promise.all(
      events.map((e) =>
        store.record(e).then(async () => {
          const [row] = await db.query<{ n: string }>(
            `SELECT (SELECT count(*) FROM "${schema}"."intent_events" WHERE id = $1) + (SELECT count(*) FROM "${schema}"."outbox_events" WHERE envelope->'data'->>'id' = $1) AS n`,
            [e.id],
          );
          return Number(row!.n);
        }),
      ),
    );
    expect(visible).toEqual(Array(500).fill(2));
    expect(probe.transactions()).toBe(1);
    expect(probe.batchSizes()).toEqual([500]);
    expect(nudges - before).toBe(1);
    expect((await rowIds(org)).sort()).toEqual(events.map((e) => e.id).sort());

    // The rows OutboxWriter would write (topic = type, key = org_id), in the order recorded.
    const rows = await outbox(org);
    expect(rows.map((r) => r.envelope.data.id)).toEqual(events.map((e) => e.id));
    const byId = new Map(events.map((e) => [e.id, e]));
    for (const row of rows) {
      expect(row.topic).toBe(Topics.IntentEvaluated.name);
      expect(row.topic).toBe('evaluator.intent.evaluated.v1');
      expect(row.key).toBe(org);
      expect(row.envelope).toMatchObject({ type: row.topic, org_id: org, schema_version: 1, id: row.id });
      const event = byId.get(row.envelope.data.id)!;
      expect(row.envelope.occurred_at).toBe(event.createdAt.toISOString());
      expect(() => parseEvent(row.envelope)).not.toThrow();
      expect(row.envelope.data).toEqual(toIntentEvaluatedV1(event));
    }
    probe.restore();
  });

  it(`more than ${INTENT_EVENT_BATCH_MAX} at once are split into batches of at most ${INTENT_EVENT_BATCH_MAX}`, async () => {
    const org = 'org_big';
    const probe = instrument(db, store);
    await Promise.all(Array.from({ length: 1200 }, () => store.record(intentEvent(org))));
    expect(probe.batchSizes()).toEqual([500, 500, 200]);
    expect(await rowIds(org)).toHaveLength(1200);
    probe.restore();
  });

  it('under steady concurrent load, records arriving during a flush share the next transaction', async () => {
    const org = 'org_load';
    const probe = instrument(db, store);
    // 50 clients, each recording 10 events one after the other (as request handlers would).
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let i = 0; i < 10; i++) await store.record(intentEvent(org));
      }),
    );
    const sizes = probe.batchSizes();
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(500);
    expect(probe.transactions()).toBe(sizes.length);
    expect(sizes.length).toBeLessThanOrEqual(50);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(await rowIds(org)).toHaveLength(500);
    probe.restore();
  });

  it('an unreachable database rejects every waiter of the batch with DependencyUnavailableError (503), without retries', async () => {
    const { store: dead, probe } = await otherStore(openPostgresDatabase(DEAD_DATABASE_URL, schema, 2));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => dead.record(intentEvent('org_dead'))));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DependencyUnavailableError);
    // One transaction for the five (it fails at connect, before any statement), no split, no retry.
    expect(probe.transactions()).toBe(1);
    await dead.drain();
  });

  it('a batch failing for every event (schema not migrated) rejects every waiter with the error, blaming no event', async () => {
    const missing = `it_evaluator_missing_${randomBytes(4).toString('hex')}`;
    const { store: broken, probe } = await otherStore(openPostgresDatabase(TEST_DATABASE_URL, missing, 2));
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => broken.record(intentEvent('org_broken'))));
    expect(results.map((r) => r.status)).toEqual(Array(40).fill('rejected'));
    for (const r of results) expect((r as PromiseRejectedResult).reason).not.toBeInstanceOf(DependencyUnavailableError);
    expect(probe.batchSizes()).toEqual([40]);
    expect(await rowIds('org_broken')).toEqual([]);
  });

  it('an event the database refuses fails alone: the rest of its batch is committed', async () => {
    const org = 'org_poison';
    const probe = instrument(db, store);
    const events = Array.from({ length: 40 }, (_, i) => intentEvent(org, i === 27 ? { outcome: 'bogus' as never } : {}));
    const results = await Promise.allSettled(events.map((e) => store.record(e)));
    expect(results.filter((r) => r.status === 'rejected').length).toBe(1);
    expect(results[27]!.status).toBe('rejected');
    expect((await rowIds(org)).sort()).toEqual(
      events
        .filter((_, i) => i !== 27)
        .map((e) => e.id)
        .sort(),
    );
    expect((await outbox(org)).length).toBe(39);
    const [letter] = await db.query<{ record_id: string; org_id: string }>(
      `SELECT record_id, org_id FROM "${schema}"."dead_letters" WHERE kind = 'intent_event' AND record_id = $1`,
      [events[27]!.id],
    );
    expect(letter).toEqual({ record_id: events[27]!.id, org_id: org });
    // 40 → 20 + 20 → 10 + 10 → 5 + 5 → 3 + 2 → 2 + 1 → 1 + 1: a poisoned batch costs O(log n) transactions.
    expect(probe.batchSizes().length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(40)));
    probe.restore();
  });

  it('counts every committed evaluation in the overview with its event, exactly; a refused one is not counted', async () => {
    const org = 'org_counted';
    const outcomes = ['allowed', 'allowed', 'denied', 'pending_approval', 'shadow_denied'] as const;
    const events = Array.from({ length: 50 }, (_, i) =>
      intentEvent(org, {
        outcome: i === 13 ? ('bogus' as never) : outcomes[i % 5],
        intentLabel: i % 2 === 0 ? 'crm_lookup' : 'files_read',
        toolName: i % 5 === 2 ? `danger.tool_${i % 3}` : 'crm.lookup',
      }),
    );
    const results = await Promise.allSettled(events.map((e) => store.record(e)));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const committed = events.filter((_, i) => i !== 13);
    const tally = (f: (e: IntentEventRecord) => string | null) =>
      committed.reduce<Record<string, number>>((acc, e) => {
        const key = f(e);
        if (key !== null) acc[key] = (acc[key] ?? 0) + 1;
        return acc;
      }, {});
    const stats = await new ReadEvaluationStatsUseCase(new StatCountsTable(db)).read(org, '1h', new Date(T0 + 60_000));
    expect(stats.evaluations?.total).toBe(49);
    expect(stats.evaluations?.by_outcome).toEqual(tally((e) => e.outcome));
    expect(Object.fromEntries((stats.intentions ?? []).map((t) => [t.intent_label, t.count]))).toEqual(tally((e) => e.intentLabel));
    expect(Object.fromEntries((stats.refused_tools ?? []).map((t) => [t.tool, t.count]))).toEqual(tally((e) => (e.outcome === 'denied' ? e.toolName : null)));
    // Another org sees none of it.
    expect((await new ReadEvaluationStatsUseCase(new StatCountsTable(db)).read('org_counted_other', '1h', new Date(T0 + 60_000))).evaluations?.total).toBe(0);
  });

  it("one org's evaluation with a lone surrogate fails alone; the other org's concurrent evaluations all commit", async () => {
    const [a, b] = ['org_poison_a', 'org_poison_b'];
    const events = Array.from({ length: 120 }, (_, i) => intentEvent(i % 2 ? b : a, i % 2 ? {} : { userId: `user\ud800${i}` }));
    const results = await Promise.allSettled(events.map((e) => store.record(e)));
    results.forEach((r, i) => expect(r.status).toBe(i % 2 ? 'fulfilled' : 'rejected'));
    for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(RecordRefusedError);
    expect((await rowIds(b)).length).toBe(60);
    expect(await rowIds(a)).toEqual([]);
  });

  it('drain waits for queued and in-flight writes, including records added while it waits', async () => {
    const org = 'org_drain';
    let settled = 0;
    const track = (p: Promise<void>) => p.then(() => settled++);
    for (let i = 0; i < 300; i++) void track(store.record(intentEvent(org)));
    // Let the first batch start, then add more while it is being written.
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 200; i++) void track(store.record(intentEvent(org)));
    await store.drain();
    expect(settled).toBe(500);
    expect(await rowIds(org)).toHaveLength(500);

    await store.drain(); // idle: resolves at once
    void track(store.record(intentEvent(org)));
    await store.beforeApplicationShutdown();
    expect(settled).toBe(501);
  });

  it('pages newest first with a stable cursor while newer events are being recorded', async () => {
    const org = 'org_pages';
    const base = Date.parse('2026-04-01T00:00:00.000Z');
    // 23 events; groups of three share a millisecond, so the id breaks ties.
    const events = Array.from({ length: 23 }, (_, i) => intentEvent(org, { createdAt: new Date(base + Math.floor(i / 3) * 1000) }));
    await Promise.all(events.map((e) => store.record(e)));
    const expected = [...events].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((e) => e.id);

    let round = 0;
    const newer: string[] = [];
    const seen = await walk(org, { limit: '4' }, async () => {
      // Newer events land between pages, some concurrently with the next page read.
      const batch = Array.from({ length: 3 }, () => intentEvent(org, { createdAt: new Date(base + 3_600_000 + round++) }));
      newer.push(...batch.map((e) => e.id));
      await Promise.all([...batch.map((e) => store.record(e)), store.page(org, { limit: 4 })]);
    });
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(23);
    expect(newer.length).toBeGreaterThan(0);
    // A fresh walk starts with the newer events.
    const fresh = await walk(org, { limit: '200' });
    expect(fresh.slice(-23)).toEqual(expected);
    expect(fresh).toHaveLength(23 + newer.length);
  });

  it('filters by outcome and since (inclusive), alone, together and across pages', async () => {
    const org = 'org_filters';
    const base = Date.parse('2026-05-01T00:00:00.000Z');
    const outcomes = ['allowed', 'denied', 'pending_approval', 'approved', 'shadow_denied'] as const;
    const events = Array.from({ length: 20 }, (_, i) => intentEvent(org, { outcome: outcomes[i % 5], createdAt: new Date(base + i * 60_000) }));
    await Promise.all(events.map((e) => store.record(e)));
    const newestFirst = (list: IntentEventRecord[]) => [...list].reverse().map((e) => e.id);

    expect(await walk(org, { limit: '3', outcome: 'denied' })).toEqual(newestFirst(events.filter((e) => e.outcome === 'denied')));
    const since = events[12]!.createdAt.toISOString();
    expect(await walk(org, { limit: '3', since })).toEqual(newestFirst(events.slice(12)));
    expect(await walk(org, { limit: '1', since, outcome: 'approved' })).toEqual(newestFirst(events.slice(12).filter((e) => e.outcome === 'approved')));
    expect(await store.page(org, { limit: 5, since: new Date(base + 3_600_000) })).toEqual([]);

    const rows = await store.page(org, { limit: 2, outcome: 'allowed' });
    expect(rows.map((e) => e.id)).toEqual(newestFirst(events.filter((e) => e.outcome === 'allowed')).slice(0, 3));
  });

  it("never returns another org's events", async () => {
    const a = Array.from({ length: 5 }, () => intentEvent('org_a'));
    const b = Array.from({ length: 3 }, () => intentEvent('org_b'));
    await Promise.all([...a, ...b].map((e) => store.record(e)));
    expect((await walk('org_a', { limit: '2' })).sort()).toEqual(a.map((e) => e.id).sort());
    expect((await walk('org_b', { limit: '200' })).sort()).toEqual(b.map((e) => e.id).sort());
    expect(await store.page('org_c', { limit: 50 })).toEqual([]);
    // A cursor from org_a's history reveals nothing of org_a in org_b.
    const q = parseHistoryQuery({ limit: '1' });
    const first = toPage(await store.page('org_a', q), q.limit);
    const cursored = parseHistoryQuery({ limit: '200', cursor: first.nextCursor! });
    expect((await store.page('org_b', cursored)).every((e) => e.orgId === 'org_b')).toBe(true);
    expect((await outbox('org_b')).map((r) => r.envelope.org_id)).toEqual(Array(3).fill('org_b'));
  });

  describe('kept calls (DESIGN 6.16)', () => {
    const call = { toolName: 'crm.lookup_contact', arguments: { q: 'ada', fields: ['email'] }, conversationContext: [{ role: 'user', content: 'find Ada' }] };
    const count = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}"."intent_calls"`))[0]!.n;

    it('are committed with their event and read back only when the page asks, within the window', async () => {
      const kept = intentEvent('org_calls', { call, createdAt: new Date(T0 + 10_000) });
      const bare = intentEvent('org_calls', { createdAt: new Date(T0 + 10_001) });
      const old = intentEvent('org_calls', { call: { toolName: 'old.tool' }, createdAt: new Date(T0 - 86_400_000) });
      await Promise.all([kept, bare, old].map((e) => store.record(e)));
      // Not asked: no call, even where one is kept.
      expect((await store.page('org_calls', { limit: 10 })).map((e) => e.call)).toEqual([null, null, null]);
      const asked = await store.page('org_calls', { limit: 10, callsSince: new Date(T0) });
      expect(asked.map((e) => [e.id, e.call])).toEqual([
        [bare.id, null],
        [kept.id, call],
        [old.id, null], // recorded before the window's start: never shown, even before the purge
      ]);
      expect(asked.find((e) => e.id === kept.id)).toEqual(kept);
    });

    it("another org's page never carries this org's calls", async () => {
      const mine = intentEvent('org_calls_a', { call });
      await store.record(mine);
      expect(await store.page('org_calls_b', { limit: 10, callsSince: new Date(0) })).toEqual([]);
      // Even asked by id through a page of another org, the call rows are filtered by org.
      const stolen = await (store as unknown as { prisma: EvaluatorPrisma }).prisma.intentCall.findMany({ where: { orgId: 'org_calls_b' } });
      expect(stolen).toEqual([]);
    });

    it('the purge deletes, across orgs, only calls recorded before the cutoff, in batches, and keeps the events', async () => {
      const cutoff = new Date(T0 + 50_000);
      const before = await count();
      const doomed = Array.from({ length: 7 }, (_, i) => intentEvent(`org_p${i % 2}`, { call, createdAt: new Date(T0 + 40_000 + i) }));
      const fresh = Array.from({ length: 3 }, (_, i) => intentEvent('org_p0', { call, createdAt: new Date(T0 + 60_000 + i) }));
      await Promise.all([...doomed, ...fresh].map((e) => store.record(e)));
      expect(await count()).toBe(before + 10);
      const purge = new SqlKeptCalls(db, 3);
      const purged = await purge.purgeBefore(cutoff);
      expect(purged).toBeGreaterThanOrEqual(7);
      const left = await db.query<{ id: string }>(`SELECT id FROM "${schema}"."intent_calls" WHERE created_at < $1`, [cutoff.toISOString()]);
      expect(left).toEqual([]);
      const page = await store.page('org_p0', { limit: 50, callsSince: new Date(0) });
      expect(
        page
          .filter((e) => e.call !== null)
          .map((e) => e.id)
          .sort(),
      ).toEqual(fresh.map((e) => e.id).sort());
      // The events stay in history.
      expect(page.map((e) => e.id)).toEqual(expect.arrayContaining(doomed.filter((e) => e.orgId === 'org_p0').map((e) => e.id)));
      expect(await purge.purgeBefore(cutoff)).toBe(0);
    });

    it("replay's read: the org's kept calls of the window, oldest first, keyset-paged, with what was decided", async () => {
      const t = T0 + 200_000;
      // Same instant twice: the id breaks the tie, so no page skips or repeats one.
      const mine = [0, 1, 1, 2, 3].map((ms, i) =>
        intentEvent('org_replay', { call, createdAt: new Date(t + ms), outcome: i === 2 ? 'pending_approval' : 'allowed', shadowMode: i === 3 }),
      );
      const bare = intentEvent('org_replay', { createdAt: new Date(t + 1) });
      const theirs = intentEvent('org_replay_other', { call, createdAt: new Date(t + 1) });
      const late = intentEvent('org_replay', { call, createdAt: new Date(t + 10) });
      await Promise.all([...mine, bare, theirs, late].map((e) => store.record(e)));
      const calls = new SqlKeptCalls(db);
      const window = { since: new Date(t), until: new Date(t + 10) };
      const seen: string[] = [];
      let after: { createdAt: Date; id: string } | null = null;
      for (;;) {
        const page = await calls.page('org_replay', { ...window, after, limit: 2 });
        seen.push(...page.map((r) => r.id));
        if (page.length < 2) break;
        after = page[1]!;
      }
      const expected = [...mine].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
      expect(seen).toEqual(expected.map((e) => e.id));
      const [first] = await calls.page('org_replay', { ...window, after: null, limit: 1 });
      expect(first).toEqual({
        id: expected[0]!.id,
        createdAt: expected[0]!.createdAt,
        outcome: expected[0]!.outcome,
        intentLabel: 'crm_lookup',
        shadowMode: expected[0]!.shadowMode,
        call,
      });
      expect((await calls.page('org_replay', { ...window, after: null, limit: 10 })).find((r) => r.id === mine[2]!.id)).toMatchObject({
        outcome: 'pending_approval',
      });
    });

    it('a refused event keeps no call: the call row rides in the statement of its event', async () => {
      const poison = intentEvent('org_calls_poison', { call, intentLabel: 'bad\ud800' });
      await expect(store.record(poison)).rejects.toBeInstanceOf(RecordRefusedError);
      const rows = await db.query(`SELECT id FROM "${schema}"."intent_calls" WHERE id = $1`, [poison.id]);
      expect(rows).toEqual([]);
      // Nor does its dead letter, which is kept for ever: the call only for the retention window.
      const [letter] = await db.query<{ payload: string }>(`SELECT payload FROM "${schema}"."dead_letters" WHERE kind = 'intent_event' AND record_id = $1`, [
        poison.id,
      ]);
      const kept = JSON.parse(letter!.payload) as Record<string, unknown>;
      expect(kept).toMatchObject({ id: poison.id });
      expect(kept).not.toHaveProperty('call');
    });
  });
});
