import type { DeadLetter, ServiceDatabase, SqlDeadLetters } from '@igw/persistence';
import { RecordRefusedError } from '@igw/kernel';
import { parseEvent, Topics, type EventEnvelope } from '@igw/contracts';
import { GatedFakeDatabase } from '@igw/testing/unit';
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
  evidence: {
    classification_method: 'lexical',
    evaluation_layers_consulted: ['lexical'],
    confidence: 0.75,
    certain: false,
    supporting_evidence: [],
    schema_version: 1,
  },
  grantJti: null,
  call: null,
  ...extra,
});

/**
 * A database stand-in that sees the one statement of each batch: the event ids and the outbox
 * envelopes it was given, and whether it committed. `refuse` decides which batches fail; `hold`
 * keeps the next commits open until released.
 */
class FakeDatabase extends GatedFakeDatabase {
  outbox: EventEnvelope[] = [];

  constructor() {
    super('intent_evaluator');
  }

  async commit(sql: string, [rows, events]: [string, string]): Promise<{ seq: string; id: string }[]> {
    // One statement writes both tables, and answers the outbox rows it wrote.
    expect(sql).toContain('"intent_events"');
    expect(sql).toContain('"outbox_events"');
    expect(sql).toContain('RETURNING "seq"');
    await this.settle((JSON.parse(rows) as { id: string }[]).map((r) => r.id));
    const written = JSON.parse(events) as EventEnvelope[];
    this.outbox.push(...written);
    return written.map((e) => ({ seq: String(this.outbox.indexOf(e) + 1), id: e.id }));
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('PrismaIntentEventStore (on the shared GroupCommitWriter)', () => {
  let prisma: FakeDatabase;
  let store: PrismaIntentEventStore;
  let nudges: number;
  let letters: DeadLetter[];

  beforeEach(() => {
    prisma = new FakeDatabase();
    nudges = 0;
    letters = [];
    const deadLetters = { add: async (l: DeadLetter) => void letters.push(l) } as unknown as SqlDeadLetters;
    store = new PrismaIntentEventStore({} as EvaluatorPrisma, prisma as unknown as ServiceDatabase, { nudge: () => nudges++ }, deadLetters);
  });

  it('writes a record with its intent.evaluated outbox row in one statement, then nudges the relay', async () => {
    const e = intentEvent({ userId: 'u_1', approvalRequestId: 'apr_1', outcome: 'pending_approval' });
    await store.record(e);
    expect(prisma.committed).toEqual([[e.id]]);
    expect(nudges).toBe(1);
    expect(prisma.outbox).toHaveLength(1);
    const [env] = prisma.outbox;
    expect(env).toMatchObject({ type: Topics.IntentEvaluated.name, org_id: 'org_1', schema_version: 1, occurred_at: e.createdAt.toISOString() });
    expect(env!.data).toEqual(toIntentEvaluatedV1(e));
    expect(() => parseEvent(env!)).not.toThrow();
  });

  it(`never puts more than ${INTENT_EVENT_BATCH_MAX} events in one statement`, async () => {
    await Promise.all(Array.from({ length: 1234 }, () => store.record(intentEvent())));
    expect(prisma.committed.map((b) => b.length)).toEqual([500, 500, 234]);
  });

  it("one org's event the database refuses is set aside; the other org's evaluations of the batch commit", async () => {
    const events = Array.from({ length: 60 }, (_, i) => intentEvent({ orgId: i % 2 ? 'org_b' : 'org_a' }));
    const bad = events[10]!;
    prisma.refuse = (ids) => (ids.includes(bad.id) ? Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' }) : null);
    const results = await Promise.allSettled(events.map((e) => store.record(e)));
    expect(results.flatMap((r, i) => (r.status === 'rejected' ? [events[i]!.id] : []))).toEqual([bad.id]);
    expect((results[10] as PromiseRejectedResult).reason).toBeInstanceOf(RecordRefusedError);
    expect(letters).toMatchObject([{ kind: 'intent_event', recordId: bad.id, orgId: 'org_a' }]);
    expect(prisma.committed.flat()).toHaveLength(59);
  });

  it('drain waits for what is queued (shutdown)', async () => {
    prisma.hold();
    let settled = 0;
    for (let i = 0; i < 10; i++) void store.record(intentEvent()).then(() => settled++);
    const drained = store.beforeApplicationShutdown();
    await turn();
    prisma.release();
    await drained;
    expect(settled).toBe(10);
  });
});
