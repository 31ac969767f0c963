import type { PageKey } from '@igw/kernel';

export interface KeysetPageQuery {
  /** Column list and table, as SQL. */
  select: string;
  from: string;
  /** Column = value conditions; an undefined value (a filter not asked for) is left out. */
  equal: readonly (readonly [column: string, value: unknown])[];
  /** A fixed extra condition, as SQL without parameters. */
  also?: string;
  /** Column op value bounds (`created_at >= since`); an undefined value is left out. */
  ranges?: readonly (readonly [column: string, op: '>=' | '<', value: unknown])[];
  /** The tie-breaking key after `created_at`; default `id`. */
  key?: string;
  after?: PageKey | null;
  limit: number;
}

/**
 * A newest-first keyset page: rows before the cursor's (created_at, key), `limit + 1` of them so
 * the caller can tell whether another page follows. Returns the statement and its parameters.
 */
export function keysetPageSql(q: KeysetPageQuery): [string, unknown[]] {
  const key = `"${q.key ?? 'id'}"`;
  const params: unknown[] = [];
  const where: string[] = [];
  for (const [column, value] of q.equal) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`"${column}" = $${params.length}`);
  }
  if (q.also) where.push(q.also);
  for (const [column, op, value] of q.ranges ?? []) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`"${column}" ${op} $${params.length}`);
  }
  if (q.after) {
    params.push(q.after.createdAt.toISOString(), q.after.id);
    where.push(`("created_at", ${key}) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(q.limit + 1);
  return [`SELECT ${q.select} FROM ${q.from} WHERE ${where.join(' AND ')} ORDER BY "created_at" DESC, ${key} DESC LIMIT $${params.length}`, params];
}
