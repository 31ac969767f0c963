import { rethrowUnavailable, type ServiceDatabase } from '@igw/persistence';
import type { KeptCalls } from '../../application/ports/intent-event.repository.port';

/** Kept calls one purge statement deletes; a purge repeats until fewer are left. */
export const CALL_PURGE_BATCH = 5000;

/**
 * The retention purge of `intent_calls` (DESIGN 6.16), straight on the service's database so the
 * CronJob's task runs it without the rest of the service. Batches keep each statement short: the
 * first purge after a long stop never holds one huge delete.
 */
export class SqlKeptCalls implements KeptCalls {
  private readonly purgeBatch: string;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly batch: number = CALL_PURGE_BATCH,
  ) {
    const table = `"${db.schema}"."intent_calls"`;
    this.purgeBatch = `WITH doomed AS (SELECT "id" FROM ${table} WHERE "created_at" < $1::timestamptz LIMIT ${Math.max(1, Math.floor(batch))}),
      deleted AS (DELETE FROM ${table} c USING doomed WHERE c."id" = doomed."id" RETURNING 1)
      SELECT count(*)::int AS n FROM deleted`;
  }

  async purgeBefore(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.db.query<{ n: number }>(this.purgeBatch, [cutoff.toISOString()]).catch(rethrowUnavailable);
      const count = row?.n ?? 0;
      total += count;
      if (count < this.batch) return total;
    }
  }
}
