import type { ServiceDatabase } from '@igw/persistence';
import { DependencyUnavailableError } from '@igw/kernel';
import { parseEvent, Topics, type EventEnvelope } from '@igw/contracts';
import { toIntentEvaluatedV1, type IntentEventRecord } from '../../application/ports/intent-event.repository.port';
import type { EvaluatorPrisma } from './evaluator-prisma.client';
import { INTENT_EVENT_BATCH_MAX, PrismaIntentEventStore } from './prisma-intent-event.store';

let n = 0;
const intentEvent = (extra: Partial<IntentEventRecord> = {}): IntentEventRecord => ({
  id: `iev_${String(++n).padStart(6, '0')}`,
  orgId: 'org_1',
  outcome: 'allowed',
  intentLabel: 'crm_lookup',
  intentClass: 'lookup',
  confidence: 0.75,
  toolName: 'crm.lookup',
  userId: null,
  sessionId: null,
  conversationId: null,
  shadowMode: false,
  policyId: 'int_crm@1',
  approvalRequestId: null,
  dataElements: ['crm:customers.email'],
  processingTimeMs: 2,
  createdAt: new Date(Date.UTC(2026, 2, 1, 10, 0, 0, n)),
  evidence: { classification_method: 'lexical', evaluation_layers_consulted: ['lexical'], confidence: 0.75, supporting_evidence: [], schema_version: 1 },
  grantJti: null,
  ...extra,
});

/**
 * A database stand-in that sees the two statements of each transaction: the batch of event ids it
 * was given, and whether it committed. `refuse` decides which batches fail; `hold` keeps the
 * next transactions open until released.
 */
class FakeDatabase {
  readonly schema = 'intent_evaluator';
  attempts: string[][] = [];
  committed: string[][] = [];
  outbox: EventEnvelope[] = [];
  refuse: (ids: string[]) => unknown = () => null;
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.gate = null;
    this.open?.();
  }

  async transaction(fn: (tx: unknown) => Promise<void>): Promise<void> {
    let ids: string[] = [];
    let envelopes: EventEnvelope[] = [];
    await fn({
      query: async (sql: string, [json]: [string]) => {
        const rows = JSON.parse(json) as { id: string }[];
        if (sql.includes('"intent_events"')) ids = rows.map((r) => r.id);
        else envelopes = rows as unknown as EventEnvelope[];
        return [];
      },
    });
    this.attempts.push(ids);
    if (this.gate) await this.gate;
    const error = this.refuse(ids);
    if (error) throw error;
    this.committed.push(ids);
    this.outbox.push(...envelopes);
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('PrismaIntentEventStore (group commit)', () => {
  let prisma: FakeDatabase;
  let store: PrismaIntentEventStore;
  let nudges: number;

  beforeEach(() => {
    prisma = new FakeDatabase();
    nudges = 0;
    store = new PrismaIntentEventStore({} as EvaluatorPrisma, prisma as unknown as ServiceDatabase, { nudge: () => nudges++ });
  });

  it('writes a lone record on the next turn of the event loop, with its intent.evaluated outbox row', async () => {
    const e = intentEvent({ userId: 'u_1', approvalRequestId: 'apr_1', outcome: 'pending_approval' });
    const recorded = store.record(e);
    expect(prisma.attempts).toEqual([]);
    await recorded;
    expect(prisma.committed).toEqual([[e.id]]);
    expect(nudges).toBe(1);
    expect(prisma.outbox).toHaveLength(1);
    const [env] = prisma.outbox;
    expect(env).toMatchObject({ type: Topics.IntentEvaluated.name, org_id: 'org_1', schema_version: 1, occurred_at: e.createdAt.toISOString() });
    expect(env!.data).toEqual(toIntentEvaluatedV1(e));
    expect(() => parseEvent(env!)).not.toThrow();
  });

  it('resolves a record only once its batch committed', async () => {
    prisma.hold();
    let done = false;
    const recorded = store.record(intentEvent()).then(() => (done = true));
    await turn();
    await turn();
    expect(prisma.attempts).toHaveLength(1);
    expect(done).toBe(false);
    prisma.release();
    await recorded;
    expect(done).toBe(true);
  });

  it('records of one turn share a transaction; those arriving during a flush form the next one', async () => {
    prisma.hold();
    const first = Array.from({ length: 30 }, () => intentEvent());
    const firstDone = Promise.all(first.map((e) => store.record(e)));
    await turn();
    const second = Array.from({ length: 70 }, () => intentEvent());
    const secondDone = Promise.all(second.map((e) => store.record(e)));
    await turn();
    expect(prisma.attempts).toEqual([first.map((e) => e.id)]);
    prisma.release();
    await Promise.all([firstDone, secondDone]);
    expect(prisma.committed).toEqual([first.map((e) => e.id), second.map((e) => e.id)]);
    expect(nudges).toBe(2);
  });

  it(`never puts more than ${INTENT_EVENT_BATCH_MAX} events in one transaction`, async () => {
    await Promise.all(Array.from({ length: 1234 }, () => store.record(intentEvent())));
    expect(prisma.committed.map((b) => b.length)).toEqual([500, 500, 234]);
  });

  it('an unreachable database rejects the whole batch with DependencyUnavailableError, without splitting it', async () => {
    prisma.refuse = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => store.record(intentEvent())));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof DependencyUnavailableError)).toBe(true);
    expect(prisma.attempts.map((b) => b.length)).toEqual([8]);
    expect(nudges).toBe(0);
    // The store recovers with the database.
    prisma.refuse = () => null;
    await store.record(intentEvent());
    expect(nudges).toBe(1);
  });

  it('an error every event causes rejects the whole batch with it after one split', async () => {
    const error = new Error('relation "intent_events" does not exist');
    prisma.refuse = () => error;
    const results = await Promise.allSettled(Array.from({ length: 9 }, () => store.record(intentEvent())));
    expect(results.map((r) => (r as PromiseRejectedResult).reason)).toEqual(Array(9).fill(error));
    expect(prisma.attempts.map((b) => b.length)).toEqual([9, 5, 4]);
  });

  it('one event the database refuses fails alone, in O(log n) extra transactions', async () => {
    const events = Array.from({ length: 500 }, () => intentEvent());
    const bad = events[321]!.id;
    prisma.refuse = (ids) => (ids.includes(bad) ? new Error('new row violates check constraint') : null);
    const results = await Promise.allSettled(events.map((e) => store.record(e)));
    expect(results.flatMap((r, i) => (r.status === 'rejected' ? [events[i]!.id] : []))).toEqual([bad]);
    expect(prisma.committed.flat().sort()).toEqual(events.map((e) => e.id).filter((id) => id !== bad));
    expect(prisma.attempts.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(500)));
  });

  it('several refused events in one half are each found; refused events in both halves fail the batch', async () => {
    const events = Array.from({ length: 16 }, () => intentEvent());
    let bad = new Set([events[1]!.id, events[6]!.id]);
    prisma.refuse = (ids) => (ids.some((id) => bad.has(id)) ? new Error('refused') : null);
    let results = await Promise.allSettled(events.map((e) => store.record(e)));
    expect(results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []))).toEqual([1, 6]);

    const more = Array.from({ length: 16 }, () => intentEvent());
    bad = new Set([more[1]!.id, more[12]!.id]);
    results = await Promise.allSettled(more.map((e) => store.record(e)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
  });

  it('drain waits for queued and in-flight batches, also those recorded while it waits', async () => {
    await store.drain(); // idle
    prisma.hold();
    let settled = 0;
    for (let i = 0; i < 10; i++) void store.record(intentEvent()).then(() => settled++);
    const drained = store.beforeApplicationShutdown();
    await turn();
    for (let i = 0; i < 5; i++) void store.record(intentEvent()).then(() => settled++);
    let done = false;
    void drained.then(() => (done = true));
    await turn();
    expect(done).toBe(false);
    prisma.release();
    await drained;
    expect(settled).toBe(15);
    expect(prisma.committed.map((b) => b.length)).toEqual([10, 5]);
  });
});
