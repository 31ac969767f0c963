// The SqlDecisionRepository specs' world (sql-decision.repository.int-spec.ts and
// sql-decision.repository.lists.int-spec.ts): decision records and the repository on its own schema.
import { type DecisionMadeV1, type EventEnvelope } from '@igw/contracts';
import { SqlDeadLetters, type ServiceDatabase } from '@igw/persistence';
import { dropTestSchema, openMigratedSchema, testSchemaName, atTestTime as at, randomHex as rnd } from '@igw/persistence/testing';
import { type DecisionRecord } from '../../domain';
import { DECISION_PROXY_MIGRATIONS } from '../../decision-proxy.module';
import { SqlDecisionRepository } from './sql-decision.repository';

let seq = 0;
/** An `allow` decision by default; `review()` makes a deferred one. */
export function record(orgId: string, over: Partial<DecisionRecord> = {}): DecisionRecord {
  seq++;
  const decisionId = over.decisionId ?? `dec_${rnd()}_${seq}`;
  return {
    decisionId,
    orgId,
    keyId: 'key_agent',
    kind: 'allow',
    ruleId: null,
    stage: 'default',
    reason: null,
    shadowKind: null,
    decision: { kind: 'allow', decision_id: decisionId },
    credId: `mnd_${seq}`,
    intentId: 'crm-card',
    promptId: `prm_${seq}`,
    actor: 'agent:billing-bot',
    audience: 'https://crm.example.com',
    surface: 'mcp',
    operation: 'crm.contacts.read',
    targetResource: 'crm:customers/42',
    argumentsSha256: 'a'.repeat(64),
    approvalRequestId: null,
    reviewId: null,
    reviewStatus: null,
    reviewedAt: null,
    reviewedByKeyId: null,
    reviewNote: null,
    createdAt: at(seq),
    ...over,
  };
}

export function review(orgId: string, over: Partial<DecisionRecord> = {}): DecisionRecord {
  const decisionId = over.decisionId ?? `dec_${rnd()}_${seq + 1}`;
  const reviewId = over.reviewId ?? `rev_${rnd()}_${seq + 1}`;
  return record(orgId, {
    decisionId,
    kind: 'defer',
    ruleId: 'rule_defer_writes',
    stage: 'rule',
    decision: { kind: 'defer', decision_id: decisionId, rule_id: 'rule_defer_writes', review_id: reviewId },
    reviewId,
    reviewStatus: 'pending',
    ...over,
  });
}

type OutboxRow = { seq: string; id: string; topic: string; key: string; envelope: EventEnvelope<DecisionMadeV1> };

/**
 * The repository on a schema of its own for one spec file, migrated before its specs and dropped
 * after them; `nudges` counts the relay nudges, `others` are databases the specs open and close.
 */
export function decisionRepositoryUnderTest() {
  const t = {
    schema: testSchemaName('decisions'),
    db: undefined as unknown as ServiceDatabase,
    repo: undefined as unknown as SqlDecisionRepository,
    nudges: 0,
    others: [] as ServiceDatabase[],
    rows: async (orgId: string) =>
      (await t.db.query<{ decision_id: string }>(`SELECT decision_id FROM "${t.schema}"."decisions" WHERE org_id = $1 ORDER BY decision_id`, [orgId])).map(
        (r) => r.decision_id,
      ),
    outbox: async (orgId: string) =>
      t.db.query<OutboxRow>(`SELECT seq, id, topic, key, envelope FROM "${t.schema}"."outbox_events" WHERE key = $1 ORDER BY seq`, [orgId]),
    outboxIds: async (orgId: string) => (await t.outbox(orgId)).map((r) => r.envelope.data.decision_id),
    sorted: (ids: string[]) => [...ids].sort(),
    /** Records submitted in one turn of the event loop: one group commit (one transaction). */
    saveAll: (records: readonly DecisionRecord[]) => Promise.all(records.map((r) => t.repo.record(r))).then(() => undefined),
  };
  beforeAll(async () => {
    t.db = await openMigratedSchema(t.schema, DECISION_PROXY_MIGRATIONS, 12);
    t.repo = new SqlDecisionRepository(t.db, { nudge: () => void t.nudges++ }, new SqlDeadLetters(t.db));
  });
  afterAll(async () => {
    for (const o of t.others) await o.close().catch(() => undefined);
    await dropTestSchema(t.db);
  });
  return t;
}
