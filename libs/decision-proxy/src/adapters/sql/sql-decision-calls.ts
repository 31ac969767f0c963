import { BatchedPurge, jsonRowsInsertSql, PURGE_BATCH, rethrowUnavailable, type ServiceDatabase } from '@igw/persistence';
import type { DecisionCalls } from '../../application/ports/decision-calls.port';
import type { DecisionKind, PageKey } from '@igw/kernel';
import type { DecisionCall, DecisionRecord, KeptDecision } from '../../domain';

const TABLE = 'decision_calls';

const COLUMNS = [
  ['id', 'text'],
  ['org_id', 'text'],
  ['action', 'jsonb'],
  ['context', 'jsonb'],
  ['created_at', 'timestamptz'],
] as const;

/**
 * The data-modifying CTE that keeps the calls of a decision batch: rows from the JSON array in
 * `param` (decisionCallRows), only for the decisions `freshIds` (a subquery) names as new, so a
 * decision stored twice keeps one call and a refused batch keeps none.
 */
export function decisionCallsInsertSql(schema: string, param: string, freshIds: string): string {
  return `${jsonRowsInsertSql(`"${schema}"."${TABLE}"`, COLUMNS, param)} WHERE r."id" IN (${freshIds})`;
}

/** The JSON array decisionCallsInsertSql reads: one element per record that keeps its call. */
export function decisionCallRows(records: readonly DecisionRecord[]): string {
  const rows = records.flatMap((r) =>
    r.call ? [{ id: r.decisionId, org_id: r.orgId, action: r.call.action, context: r.call.context ?? null, created_at: r.createdAt.toISOString() }] : [],
  );
  return JSON.stringify(rows);
}

interface CallRow {
  id: string;
  action: DecisionCall['action'];
  context: Record<string, unknown> | null;
}

interface KeptRow extends CallRow {
  created_at: Date | string;
  kind: DecisionKind;
  intent_id: string;
  prompt_id: string | null;
  actor: string;
  audience: string;
  cred_id: string;
  approval_request_id: string | null;
}

/** Kept mandate-path calls in the proxy's schema: read by org and id, purged by age in batches. */
export class SqlDecisionCalls implements DecisionCalls {
  private readonly purge: BatchedPurge;
  private readonly selectSql: string;
  private readonly pageSql: string;

  constructor(
    private readonly db: ServiceDatabase,
    batch: number = PURGE_BATCH,
  ) {
    this.purge = new BatchedPurge(db, TABLE, batch);
    this.selectSql = `SELECT "id", "action", "context" FROM "${db.schema}"."${TABLE}"
      WHERE "org_id" = $1 AND "id" = ANY($2::text[]) AND "created_at" >= $3::timestamptz`;
    // Both tables under the org: another org's call or decision is never read. Walks the
    // (org_id, created_at, id) index oldest first; $4/$5 is the keyset position (null: the start).
    this.pageSql = `SELECT c."id", c."action", c."context", c."created_at", d."kind", d."intent_id", d."prompt_id",
        d."actor", d."audience", d."cred_id", d."approval_request_id"
      FROM "${db.schema}"."${TABLE}" c JOIN "${db.schema}"."decisions" d ON d."decision_id" = c."id" AND d."org_id" = c."org_id"
      WHERE c."org_id" = $1 AND c."created_at" >= $2::timestamptz AND c."created_at" < $3::timestamptz
        AND ($4::timestamptz IS NULL OR (c."created_at", c."id") > ($4::timestamptz, $5::text))
      ORDER BY c."created_at", c."id" LIMIT $6`;
  }

  async page(orgId: string, q: { since: Date; until: Date; after: PageKey | null; limit: number }): Promise<KeptDecision[]> {
    const params = [orgId, q.since.toISOString(), q.until.toISOString(), q.after?.createdAt.toISOString() ?? null, q.after?.id ?? '', q.limit];
    const rows = await this.db.query<KeptRow>(this.pageSql, params).catch(rethrowUnavailable);
    return rows.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created_at),
      kind: r.kind,
      intentId: r.intent_id,
      promptId: r.prompt_id,
      actor: r.actor,
      audience: r.audience,
      credId: r.cred_id,
      approvalRequestId: r.approval_request_id,
      call: { action: r.action, ...(r.context !== null ? { context: r.context } : {}) },
    }));
  }

  async callsOf(orgId: string, decisionIds: readonly string[], since: Date): Promise<Map<string, DecisionCall>> {
    if (decisionIds.length === 0) return new Map();
    const rows = await this.db.query<CallRow>(this.selectSql, [orgId, [...decisionIds], since.toISOString()]).catch(rethrowUnavailable);
    return new Map(rows.map((r) => [r.id, { action: r.action, ...(r.context !== null ? { context: r.context } : {}) }]));
  }

  purgeBefore(cutoff: Date): Promise<number> {
    return this.purge.before(cutoff);
  }
}
