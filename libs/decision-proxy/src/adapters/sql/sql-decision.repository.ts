import { Topics } from '@igw/contracts';
import { envelope, type OutboxNotifier } from '@igw/events';
import { defined, type DecisionKind } from '@igw/kernel';
import {
  GroupCommitStore,
  GroupCommitWriter,
  handOverCommitted,
  jsonRowsInsertSql,
  type GroupCommitStatement,
  keysetPageSql,
  OutboxWriter,
  rethrowUnavailable,
  StatCountsTable,
  type ServiceDatabase,
  type SqlDeadLetters,
} from '@igw/persistence';
import { decisionCallFields } from '../../application/decision-call-fields';
import { decisionCallRows, decisionCallsInsertSql } from './sql-decision-calls';
import { toDecisionMadeV1 } from '../../application/decision-made.payload';
import { type DecisionListQuery, type DecisionRecord, type DecisionStage, type ReviewStatus, type AnsweredDecision } from '../../domain';
import type { DecisionRepository, ResolveReviewResult, ReviewPageQuery } from '../../application/ports/decision.repository.port';

export const DECISION_DB = Symbol('DECISION_DB');

/** Column name → SQL type, in table order (keys of `toColumns`). */
const COLUMNS = [
  ['decision_id', 'text'],
  ['org_id', 'text'],
  ['kind', 'text'],
  ['rule_id', 'text'],
  ['stage', 'text'],
  ['reason', 'text'],
  ['shadow_kind', 'text'],
  ['decision', 'jsonb'],
  ['cred_id', 'text'],
  ['intent_id', 'text'],
  ['prompt_id', 'text'],
  ['actor', 'text'],
  ['audience', 'text'],
  ['surface', 'text'],
  ['operation', 'text'],
  ['target_resource', 'text'],
  ['arguments_sha256', 'text'],
  ['key_id', 'text'],
  ['approval_request_id', 'text'],
  ['review_id', 'text'],
  ['review_status', 'text'],
  ['reviewed_at', 'timestamptz'],
  ['reviewed_by_key_id', 'text'],
  ['review_note', 'text'],
  ['created_at', 'timestamptz'],
] as const;

const toColumns = (r: DecisionRecord) => ({
  decision_id: r.decisionId,
  org_id: r.orgId,
  kind: r.kind,
  rule_id: r.ruleId,
  stage: r.stage,
  reason: r.reason,
  shadow_kind: r.shadowKind,
  decision: r.decision,
  ...decisionCallFields(r),
  audience: r.audience,
  arguments_sha256: r.argumentsSha256,
  key_id: r.keyId,
  approval_request_id: r.approvalRequestId,
  review_id: r.reviewId,
  review_status: r.reviewStatus,
  reviewed_at: r.reviewedAt?.toISOString() ?? null,
  reviewed_by_key_id: r.reviewedByKeyId,
  review_note: r.reviewNote,
  created_at: r.createdAt.toISOString(),
});

/** What each decision adds to in the overview's counts (GET /v1/stats): its kind, its card, and the tool when denied. */
export const DECISION_COUNTS = [
  { name: 'kind', key: 'd."kind"' },
  { name: 'card', key: 'd."intent_id"' },
  { name: 'refused_tool', key: `CASE WHEN d."kind" IN ('deny', 'deny_with_reroute') THEN d."operation" END` },
];

type Row = Record<(typeof COLUMNS)[number][0], unknown>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

const fromRow = (r: Row): DecisionRecord => ({
  decisionId: String(r.decision_id),
  orgId: String(r.org_id),
  kind: r.kind as DecisionKind,
  ruleId: text(r.rule_id),
  stage: r.stage as DecisionStage,
  reason: text(r.reason),
  shadowKind: text(r.shadow_kind) as DecisionKind | null,
  decision: (typeof r.decision === 'string' ? JSON.parse(r.decision) : r.decision) as AnsweredDecision,
  credId: String(r.cred_id),
  intentId: String(r.intent_id),
  promptId: text(r.prompt_id),
  actor: String(r.actor),
  audience: String(r.audience),
  surface: String(r.surface),
  operation: String(r.operation),
  targetResource: text(r.target_resource),
  argumentsSha256: String(r.arguments_sha256),
  keyId: String(r.key_id),
  approvalRequestId: text(r.approval_request_id),
  reviewId: text(r.review_id),
  reviewStatus: text(r.review_status) as ReviewStatus | null,
  reviewedAt: r.reviewed_at === null || r.reviewed_at === undefined ? null : date(r.reviewed_at),
  reviewedByKeyId: text(r.reviewed_by_key_id),
  reviewNote: text(r.review_note),
  createdAt: date(r.created_at),
});

/**
 * Decisions in the proxy's own schema, written with raw SQL through the shared GroupCommitWriter:
 * the decisions of one moment are one transaction of one statement whatever their number (a JSON
 * array of rows through jsonb_to_recordset, and in the same statement the outbox rows of exactly
 * the decisions that were new). A decision the database refuses is set aside as a dead letter and
 * fails its own call only.
 */
export class SqlDecisionRepository extends GroupCommitStore<DecisionRecord> implements DecisionRepository {
  private readonly table: string;
  private readonly insertBatch: string;
  private readonly select = COLUMNS.map(([n]) => `"${n}"`).join(', ');
  protected readonly writer: GroupCommitWriter<DecisionRecord>;

  constructor(
    private readonly db: ServiceDatabase,
    notifier: OutboxNotifier,
    deadLetters: SqlDeadLetters,
  ) {
    super();
    const schema = db.schema;
    this.table = `"${schema}"."decisions"`;
    // New rows only (ON CONFLICT DO NOTHING … RETURNING), an outbox row and the kept call (DESIGN
    // 6.16) for each of them, and the overview's counts of exactly those (a decision stored again
    // is not counted again).
    this.insertBatch = `WITH fresh AS (
        ${jsonRowsInsertSql(this.table, COLUMNS)}
        ON CONFLICT DO NOTHING
        RETURNING "decision_id", "org_id", "kind", "intent_id", "operation", "created_at"),
      calls AS (${decisionCallsInsertSql(schema, '$3', 'SELECT "decision_id" FROM fresh')}),
      counted AS (${new StatCountsTable(db).upsertSql({ from: 'fresh d', orgId: 'd."org_id"', at: 'd."created_at"' }, DECISION_COUNTS)})
      ${new OutboxWriter(schema).insertReturningSql('$2', `(e->'data'->>'decision_id') IN (SELECT "decision_id" FROM fresh)`)}`;
    this.writer = new GroupCommitWriter<DecisionRecord>({
      kind: 'decision',
      db,
      deadLetters,
      describe: (r) => ({ id: r.decisionId, orgId: r.orgId }),
      // A dead letter is kept for ever; the call only for the retention window (DESIGN 6.16).
      setAsidePayload: ({ call: _call, ...rest }) => rest,
      statement: (batch) => this.batchStatement(batch, notifier),
    });
  }

  private batchStatement(records: readonly DecisionRecord[], notifier: OutboxNotifier): GroupCommitStatement {
    // One id twice in a batch: the first is stored, so only its event may go out (else two events for one row).
    const seen = new Set<string>();
    const unique = records.filter((r) => !seen.has(r.decisionId) && seen.add(r.decisionId));
    const rows = JSON.stringify(unique.map(toColumns));
    const events = unique.map((r) => envelope(Topics.DecisionMade, r.orgId, toDecisionMadeV1(r), r.createdAt));
    return {
      sql: this.insertBatch,
      params: [rows, JSON.stringify(events), decisionCallRows(unique)],
      // The outbox rows of the decisions that were new, straight to the relay (DESIGN 6.13, cost).
      committed: (written) => handOverCommitted(notifier, written, events),
    };
  }

  async listDecisions(orgId: string, query: DecisionListQuery): Promise<DecisionRecord[]> {
    const [sql, params] = keysetPageSql({
      select: this.select,
      from: this.table,
      equal: [
        ['org_id', orgId],
        ['cred_id', query.credId],
        ['kind', query.kind],
      ],
      ranges: [
        ['created_at', '>=', query.since?.toISOString()],
        ['created_at', '<', query.until?.toISOString()],
      ],
      key: 'decision_id',
      after: query.after,
      limit: Math.max(1, Math.floor(query.limit)),
    });
    const rows = await this.db.query<Row>(sql, params).catch(rethrowUnavailable);
    return rows.map(fromRow);
  }

  async listReviews(orgId: string, query: ReviewPageQuery): Promise<DecisionRecord[]> {
    const [sql, params] = keysetPageSql({
      select: this.select,
      from: this.table,
      equal: [
        ['org_id', orgId],
        ['review_status', query.status || undefined],
      ],
      also: `"review_id" IS NOT NULL`,
      key: 'review_id',
      after: query.after,
      limit: Math.max(1, Math.floor(query.limit)),
    });
    const rows = await this.db.query<Row>(sql, params).catch(rethrowUnavailable);
    return rows.map(fromRow);
  }

  async findByDecisionId(orgId: string, decisionId: string): Promise<DecisionRecord | null> {
    const rows = await this.db
      .query<Row>(`SELECT ${this.select} FROM ${this.table} WHERE "org_id" = $1 AND "decision_id" = $2`, [orgId, decisionId])
      .catch(rethrowUnavailable);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async resolveReview(
    orgId: string,
    reviewId: string,
    change: { status: Exclude<ReviewStatus, 'pending'>; keyId: string; note: string | null; at: Date },
  ): Promise<ResolveReviewResult> {
    return this.db
      .transaction(async (tx) => {
        const found = await tx.query<Row>(`SELECT ${this.select} FROM ${this.table} WHERE "org_id" = $1 AND "review_id" = $2 FOR UPDATE`, [orgId, reviewId]);
        if (!found[0]) return { ok: false, reason: 'not_found' } as const;
        const current = fromRow(found[0]);
        if (current.reviewStatus !== 'pending') return { ok: false, reason: 'already_resolved', record: current } as const;
        const updated = await tx.query<Row>(
          `UPDATE ${this.table} SET "review_status" = $3, "reviewed_at" = $4, "reviewed_by_key_id" = $5, "review_note" = $6
           WHERE "org_id" = $1 AND "review_id" = $2 RETURNING ${this.select}`,
          [orgId, reviewId, change.status, change.at.toISOString(), change.keyId, change.note],
        );
        return { ok: true, record: fromRow(defined(updated[0], 'resolved review')) } as const;
      })
      .catch(rethrowUnavailable);
  }
}
