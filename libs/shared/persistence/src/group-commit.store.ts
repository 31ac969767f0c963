import type { GroupCommitWriter } from './group-commit.writer';

/**
 * The INSERT of a group-commit batch: one JSON array parameter of rows, typed by
 * jsonb_to_recordset, so a batch is one statement whatever its size. `columns` are
 * [name, SQL type] in table order.
 */
export function jsonRowsInsertSql(table: string, columns: readonly (readonly [string, string])[], param = '$1'): string {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  return `INSERT INTO ${table} (${names})
        SELECT ${names} FROM jsonb_to_recordset(${param}::jsonb) AS r(${columns.map(([name, type]) => `"${name}" ${type}`).join(', ')})`;
}

/** A store that writes through a GroupCommitWriter: every record is committed before `record` resolves. */
export abstract class GroupCommitStore<T> {
  protected abstract readonly writer: GroupCommitWriter<T>;

  record(record: T): Promise<void> {
    return this.writer.submit(record);
  }

  /** Resolves once everything recorded so far (and while waiting) is committed or rejected (graceful shutdown). */
  drain(): Promise<void> {
    return this.writer.drain();
  }

  /** Records submitted and not yet committed, and the age of the oldest (health). */
  backlog(): { pending: number; oldestMs: number } {
    return this.writer.backlog();
  }
}
