import { BatchedPurge, PURGE_BATCH, rethrowUnavailable, type ServiceDatabase } from '@igw/persistence';
import type { KeptCalls, RecordedCall, RecordedCalls, RecordedCallsQuery } from '../../application/ports/intent-event.repository.port';
import type { EvaluationOutcome } from '../../domain/evaluation/outcome';
import type { RetainedMessage } from '../../domain/evaluation/retained-call';

interface RecordedCallRow {
  id: string;
  created_at: Date;
  outcome: string;
  intent_label: string;
  shadow_mode: boolean;
  tool_name: string;
  arguments: Record<string, unknown> | null;
  conversation_context: RetainedMessage[] | null;
}

/** Kept calls one purge statement deletes; a purge repeats until fewer are left. */
export const CALL_PURGE_BATCH = PURGE_BATCH;

/**
 * The retention purge of `intent_calls` (DESIGN 6.16), straight on the service's database so the
 * CronJob's task runs it without the rest of the service. Batches keep each statement short: the
 * first purge after a long stop never holds one huge delete.
 */
export class SqlKeptCalls implements KeptCalls, RecordedCalls {
  private readonly purge: BatchedPurge;
  private readonly pageSql: string;

  constructor(
    private readonly db: ServiceDatabase,
    batch: number = CALL_PURGE_BATCH,
  ) {
    const table = `"${db.schema}"."intent_calls"`;
    this.purge = new BatchedPurge(db, 'intent_calls', batch);
    // Keyset over the (org_id, created_at desc, id desc) index, walked backwards: oldest first.
    this.pageSql = `SELECT c."id", c."created_at", e."outcome", e."intent_label", e."shadow_mode", c."tool_name", c."arguments", c."conversation_context"
      FROM ${table} c JOIN "${db.schema}"."intent_events" e ON e."id" = c."id"
      WHERE c."org_id" = $1 AND c."created_at" >= $2::timestamptz AND c."created_at" < $3::timestamptz
        AND ($4::timestamptz IS NULL OR (c."created_at", c."id") > ($4::timestamptz, $5::text))
      ORDER BY c."created_at", c."id" LIMIT $6`;
  }

  /** What-if replay's read (DESIGN 6.16): one page of the org's kept calls with what was decided. */
  async page(orgId: string, q: RecordedCallsQuery): Promise<RecordedCall[]> {
    const params = [orgId, q.since.toISOString(), q.until.toISOString(), q.after?.createdAt.toISOString() ?? null, q.after?.id ?? '', q.limit];
    const rows = await this.db.query<RecordedCallRow>(this.pageSql, params).catch(rethrowUnavailable);
    return rows.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created_at),
      outcome: r.outcome as EvaluationOutcome,
      intentLabel: r.intent_label,
      shadowMode: r.shadow_mode,
      call: {
        toolName: r.tool_name,
        ...(r.arguments !== null ? { arguments: r.arguments } : {}),
        ...(r.conversation_context !== null ? { conversationContext: r.conversation_context } : {}),
      },
    }));
  }

  purgeBefore(cutoff: Date): Promise<number> {
    return this.purge.before(cutoff);
  }
}
