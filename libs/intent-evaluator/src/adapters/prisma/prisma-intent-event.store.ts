import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { Topics } from '@igw/contracts';
import {
  DEAD_LETTERS,
  GroupCommitStore,
  GroupCommitWriter,
  handOverCommitted,
  jsonRowsInsertSql,
  OutboxWriter,
  type GroupCommitStatement,
  rethrowUnavailable,
  StatCountsTable,
  type ServiceDatabase,
  type SqlDeadLetters,
} from '@igw/persistence';
import { envelope, OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import type { CascadeEvidence } from '../../application/classification/cascade-evidence';
import type { EvaluationOutcome } from '../../domain/evaluation/outcome';
import type { RetainedCall, RetainedMessage } from '../../domain/evaluation/retained-call';
import {
  toIntentEvaluatedV1,
  type IntentEventPageQuery,
  type IntentEventRecord,
  type IntentEventStore,
} from '../../application/ports/intent-event.repository.port';
import type { IntentCall as IntentCallRow, IntentEvent as IntentEventRow, Prisma } from './generated/client';
import { EVALUATOR_DB, EVALUATOR_PRISMA, type EvaluatorPrisma } from './evaluator-prisma.client';

/** Most events one transaction writes; more waiting ones go into the next. */
export const INTENT_EVENT_BATCH_MAX = 500;

const toCall = (r: IntentCallRow): RetainedCall => ({
  toolName: r.toolName,
  ...(r.arguments !== null ? { arguments: r.arguments as Record<string, unknown> } : {}),
  ...(r.conversationContext !== null ? { conversationContext: r.conversationContext as unknown as RetainedMessage[] } : {}),
});

const toRecord = (r: IntentEventRow, call: IntentCallRow | undefined): IntentEventRecord => ({
  id: r.id,
  orgId: r.orgId,
  outcome: r.outcome as EvaluationOutcome,
  intentLabel: r.intentLabel,
  intentClass: r.intentClass as IntentEventRecord['intentClass'],
  confidence: r.confidence,
  toolName: r.toolName,
  userId: r.userId,
  sessionId: r.sessionId,
  conversationId: r.conversationId,
  shadowMode: r.shadowMode,
  policyId: r.policyId,
  approvalRequestId: r.approvalRequestId,
  dataElements: r.dataElements,
  processingTimeMs: r.processingTimeMs,
  createdAt: r.createdAt,
  evidence: r.classificationEvidence as unknown as CascadeEvidence,
  grantJti: r.grantJti,
  call: call ? toCall(call) : null,
});

/** A kept call as one element of the JSON array its INSERT reads. */
const toCallColumns = (e: IntentEventRecord & { call: RetainedCall }) => ({
  id: e.id,
  org_id: e.orgId,
  tool_name: e.call.toolName,
  arguments: e.call.arguments ?? null,
  conversation_context: e.call.conversationContext ?? null,
  created_at: e.createdAt.toISOString(),
});

const CALL_COLUMNS = [
  ['id', 'text'],
  ['org_id', 'text'],
  ['tool_name', 'text'],
  ['arguments', 'jsonb'],
  ['conversation_context', 'jsonb'],
  ['created_at', 'timestamptz'],
] as const satisfies readonly (readonly [keyof ReturnType<typeof toCallColumns>, string])[];

/** An event as one element of the JSON array the batch INSERT reads (keys = column names). */
const toColumns = (e: IntentEventRecord) => ({
  id: e.id,
  org_id: e.orgId,
  outcome: e.outcome,
  intent_label: e.intentLabel,
  intent_class: e.intentClass,
  confidence: e.confidence,
  tool_name: e.toolName,
  user_id: e.userId,
  session_id: e.sessionId,
  conversation_id: e.conversationId,
  shadow_mode: e.shadowMode,
  policy_id: e.policyId,
  approval_request_id: e.approvalRequestId,
  data_elements: e.dataElements,
  processing_time_ms: e.processingTimeMs,
  classification_evidence: e.evidence,
  grant_jti: e.grantJti,
  created_at: e.createdAt.toISOString(),
});

/** What each evaluation adds to in the overview's counts (GET /v1/stats); a refused tool is one the gateway denied. */
export const EVALUATION_COUNTS = [
  { name: 'outcome', key: 'e."outcome"' },
  { name: 'intention', key: 'e."intent_label"' },
  { name: 'refused_tool', key: `CASE WHEN e."outcome" = 'denied' THEN e."tool_name" END` },
];

/** Column name → SQL type, in table order. */
const COLUMNS = [
  ['id', 'text'],
  ['org_id', 'text'],
  ['outcome', 'text'],
  ['intent_label', 'text'],
  ['intent_class', 'text'],
  ['confidence', 'double precision'],
  ['tool_name', 'text'],
  ['user_id', 'text'],
  ['session_id', 'text'],
  ['conversation_id', 'text'],
  ['shadow_mode', 'boolean'],
  ['policy_id', 'text'],
  ['approval_request_id', 'text'],
  ['data_elements', 'text[]'],
  ['processing_time_ms', 'integer'],
  ['classification_evidence', 'jsonb'],
  ['grant_jti', 'text'],
  ['created_at', 'timestamptz'],
] as const satisfies readonly (readonly [keyof ReturnType<typeof toColumns>, string])[];

/**
 * Intent events with group commit (the shared GroupCommitWriter): every evaluation is stored with
 * its `intent.evaluated` outbox row before its response is sent, many evaluations per transaction
 * of two statements (one multi-row INSERT of the events, one of their outbox rows). Prisma's
 * createMany and row-at-a-time outbox inserts took ~20× as long for a batch of 500.
 *
 * An event the database refuses (poison that slipped past the edge) is set aside as a dead letter
 * and fails its own evaluation only; the evaluations it shared a batch with, of any org, commit.
 */
@Injectable()
export class PrismaIntentEventStore extends GroupCommitStore<IntentEventRecord> implements IntentEventStore, BeforeApplicationShutdown {
  private readonly insertBatch: string;
  protected readonly writer: GroupCommitWriter<IntentEventRecord>;

  constructor(
    @Inject(EVALUATOR_PRISMA) private readonly prisma: EvaluatorPrisma,
    @Inject(EVALUATOR_DB) db: ServiceDatabase,
    @Inject(OUTBOX_NOTIFIER) notifier: OutboxNotifier,
    @Inject(DEAD_LETTERS) deadLetters: SqlDeadLetters,
  ) {
    super();
    const schema = db.schema;
    // The events and their outbox rows in one statement (a data-modifying WITH runs whether or not it is read).
    // Kept calls ride in the same statement: an answered evaluation never lacks its call, and a
    // call never outlives a refused event. So do the overview's counts, taken from the rows inserted.
    this.insertBatch = `WITH inserted AS (${jsonRowsInsertSql(`"${schema}"."intent_events"`, COLUMNS)}
        RETURNING "org_id", "outcome", "intent_label", "tool_name", "created_at"),
      calls AS (${jsonRowsInsertSql(`"${schema}"."intent_calls"`, CALL_COLUMNS, '$3')}),
      counted AS (${new StatCountsTable(db).upsertSql({ from: 'inserted e', orgId: 'e."org_id"', at: 'e."created_at"' }, EVALUATION_COUNTS)})
      ${new OutboxWriter(schema).insertReturningSql('$2')}`;
    this.writer = new GroupCommitWriter<IntentEventRecord>({
      kind: 'intent_event',
      db,
      deadLetters,
      maxBatch: INTENT_EVENT_BATCH_MAX,
      describe: (e) => ({ id: e.id, orgId: e.orgId }),
      // A dead letter is kept for ever; the call only for the retention window (DESIGN 6.16).
      setAsidePayload: ({ call: _call, ...rest }) => rest,
      statement: (events) => this.batchStatement(events, notifier),
    });
  }

  /** Graceful shutdown: answered evaluations are never lost. Runs before the Prisma client closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  async page(orgId: string, query: IntentEventPageQuery): Promise<IntentEventRecord[]> {
    const and: Prisma.IntentEventWhereInput[] = [];
    if (query.outcome) and.push({ outcome: query.outcome });
    if (query.since) and.push({ createdAt: { gte: query.since } });
    const after = query.after;
    // (created_at, id) < (t, id), spelled so that `created_at <= t` bounds the index scan and the
    // OR only filters the rows sharing the cursor's millisecond: a deep page costs what the first does.
    if (after) and.push({ createdAt: { lte: after.createdAt } }, { OR: [{ createdAt: { lt: after.createdAt } }, { id: { lt: after.id } }] });
    const rows = await this.prisma.intentEvent
      .findMany({ where: { orgId, AND: and }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: Math.max(1, Math.floor(query.limit)) + 1 })
      .catch(rethrowUnavailable);
    const since = query.callsSince;
    if (!since || rows.length === 0) return rows.map((r) => toRecord(r, undefined));
    const calls = await this.prisma.intentCall
      .findMany({ where: { orgId, id: { in: rows.map((r) => r.id) }, createdAt: { gte: since } } })
      .catch(rethrowUnavailable);
    const byId = new Map(calls.map((c) => [c.id, c]));
    return rows.map((r) => toRecord(r, byId.get(r.id)));
  }

  private batchStatement(events: readonly IntentEventRecord[], notifier: OutboxNotifier): GroupCommitStatement {
    const envelopes = events.map((e) => envelope(Topics.IntentEvaluated, e.orgId, toIntentEvaluatedV1(e), e.createdAt));
    // Straight to the driver, not through Prisma: the batch is one fixed statement, and Prisma's
    // per-statement overhead (~4 ms on PGlite) would cost more than the statement itself.
    const calls = events.filter((e): e is IntentEventRecord & { call: RetainedCall } => e.call !== null).map(toCallColumns);
    return {
      sql: this.insertBatch,
      params: [JSON.stringify(events.map(toColumns)), JSON.stringify(envelopes), JSON.stringify(calls)],
      committed: (written) => handOverCommitted(notifier, written, envelopes),
    };
  }
}
