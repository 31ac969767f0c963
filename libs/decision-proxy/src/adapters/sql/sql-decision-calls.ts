import { BatchedPurge, jsonRowsInsertSql, PURGE_BATCH, rethrowUnavailable, type ServiceDatabase } from '@igw/persistence';
import type { DecisionCalls } from '../../application/ports/decision-calls.port';
import type { DecisionCall, DecisionRecord } from '../../domain';

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

/** Kept mandate-path calls in the proxy's schema: read by org and id, purged by age in batches. */
export class SqlDecisionCalls implements DecisionCalls {
  private readonly purge: BatchedPurge;
  private readonly selectSql: string;

  constructor(
    private readonly db: ServiceDatabase,
    batch: number = PURGE_BATCH,
  ) {
    this.purge = new BatchedPurge(db, TABLE, batch);
    this.selectSql = `SELECT "id", "action", "context" FROM "${db.schema}"."${TABLE}"
      WHERE "org_id" = $1 AND "id" = ANY($2::text[]) AND "created_at" >= $3::timestamptz`;
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
