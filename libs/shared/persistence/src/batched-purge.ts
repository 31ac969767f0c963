import type { ServiceDatabase } from './database';
import { rethrowUnavailable } from './unavailable';

/** Rows one purge statement deletes; a purge repeats until fewer are left. */
export const PURGE_BATCH = 5000;

/**
 * Deletes a table's rows older than a cutoff, every org, in batches by `created_at` (an index on
 * it): the first purge after a long stop never holds one huge delete. The retention purge of kept
 * calls (DESIGN 6.16) on both decision paths.
 */
export class BatchedPurge {
  private readonly sql: string;

  /** `table` is the bare name in the database's schema; `id` its primary key. */
  constructor(
    private readonly db: ServiceDatabase,
    table: string,
    private readonly batch: number = PURGE_BATCH,
    id = 'id',
  ) {
    const t = `"${db.schema}"."${table}"`;
    this.sql = `WITH doomed AS (SELECT "${id}" FROM ${t} WHERE "created_at" < $1::timestamptz LIMIT ${Math.max(1, Math.floor(batch))}),
      deleted AS (DELETE FROM ${t} c USING doomed WHERE c."${id}" = doomed."${id}" RETURNING 1)
      SELECT count(*)::int AS n FROM deleted`;
  }

  /** How many rows were deleted. */
  async before(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.db.query<{ n: number }>(this.sql, [cutoff.toISOString()]).catch(rethrowUnavailable);
      const count = row?.n ?? 0;
      total += count;
      if (count < this.batch) return total;
    }
  }
}
