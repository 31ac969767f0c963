import { DependencyUnavailableError, RecordRefusedError } from '@igw/kernel';
import type { ServiceDatabase } from './database';
import type { SqlDeadLetters } from './dead-letters';
import { classifyWriteError } from './unavailable';

export interface GroupCommitOptions<T> {
  /** What the records are, in dead letters and errors: `decision`, `intent_event`. */
  kind: string;
  db: ServiceDatabase;
  /**
   * The batch as ONE statement (its rows as parameters, whatever their number), committed on its
   * own: atomic without BEGIN and COMMIT, so a batch costs one round trip to the database.
   */
  statement(batch: readonly T[]): GroupCommitStatement;
  /** The record's id and org, for its dead letter. */
  describe(record: T): { id: string; orgId: string };
  /** What of a refused record its dead letter keeps (default: all of it); e.g. not a kept call, which outlives no window. */
  setAsidePayload?(record: T): unknown;
  deadLetters: SqlDeadLetters;
  /** Most records one statement writes; more waiting ones go into the next. Default 500. */
  maxBatch?: number;
  /** Called after each commit (e.g. the outbox relay's nudge). */
  committed?(): void;
  /**
   * Longest one batch's transaction may take before its requests are answered 503 (default
   * 3000 ms): a database that accepts and never answers must not hold every call behind it.
   */
  commitTimeoutMs?: number;
}

export const DEFAULT_COMMIT_TIMEOUT_MS = 3000;

/** One batch's statement, and what to do with its rows once it committed (e.g. hand its outbox rows over). */
export interface GroupCommitStatement {
  sql: string;
  params: unknown[];
  committed?(rows: Record<string, unknown>[]): void;
}

interface Waiter<T> {
  record: T;
  at: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: every record must be in the store before its request is answered, and a
 * transaction per request would make the commit the bottleneck. `submit()` queues the record; one
 * flusher at a time takes everything queued (up to maxBatch) and writes it as one statement; each
 * `submit()` resolves after that commit. No timer: an idle writer flushes on the next turn of the
 * event loop, and under load the records that arrive while a flush runs form the next batch.
 *
 * Failures never spread across requests (or orgs) — see `classifyWriteError`:
 * - an outage → the whole batch rejects with DependencyUnavailableError (503); a commit that has
 *   not finished after `commitTimeoutMs` is one (its connection is dropped; the outcome is unknown,
 *   which a 503 allows — an answered record is always committed);
 * - data refused → the batch is split and retried until the records at fault are alone; each of
 *   those is set aside as a dead letter and its request rejects with RecordRefusedError, while
 *   every other record of the batch commits (O(k log n) extra transactions for k bad records).
 *   When the database goes away during the split, the rest rejects with 503;
 * - a systemic error (a missing table…) → the batch rejects with it: no record is to blame.
 */
export class GroupCommitWriter<T> {
  private readonly maxBatch: number;
  private readonly commitTimeoutMs: number;
  private queue: Waiter<T>[] = [];
  /** The batch being written (and, chained from it, the ones after it); null when idle. */
  private current: Promise<void> | null = null;
  private scheduled = false;
  private inFlightSince: number | null = null;

  constructor(private readonly options: GroupCommitOptions<T>) {
    this.maxBatch = options.maxBatch ?? 500;
    this.commitTimeoutMs = options.commitTimeoutMs ?? DEFAULT_COMMIT_TIMEOUT_MS;
  }

  submit(record: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ record, at: Date.now(), resolve, reject });
      if (this.current || this.scheduled) return;
      this.scheduled = true;
      // Next turn of the event loop: the calls made in this one join the first batch.
      setImmediate(() => {
        this.scheduled = false;
        this.dispatch();
      });
    });
  }

  /** Resolves once everything submitted so far (and while waiting) is committed or rejected. */
  async drain(): Promise<void> {
    while (this.current || this.scheduled || this.queue.length > 0) await (this.current ?? new Promise<void>((resolve) => setImmediate(resolve)));
  }

  /** Records submitted and not yet committed or rejected, and the age of the oldest (health). */
  backlog(now = Date.now()): { pending: number; oldestMs: number } {
    const oldest = Math.min(this.inFlightSince ?? Number.POSITIVE_INFINITY, this.queue[0]?.at ?? Number.POSITIVE_INFINITY);
    return { pending: this.queue.length, oldestMs: Number.isFinite(oldest) ? Math.max(0, now - oldest) : 0 };
  }

  /** Sends what is queued (up to maxBatch) as the next batch, or goes idle. */
  private dispatch(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    this.inFlightSince = batch[0]?.at ?? null;
    this.current = batch.length > 0 ? this.flush(batch) : null;
  }

  /**
   * Writes one batch and settles its waiters; never throws. The next batch is sent the moment
   * this one commits, before its waiters' answers are written: the database is not left idle
   * while this thread answers the batch it just finished.
   */
  private async flush(batch: Waiter<T>[]): Promise<void> {
    try {
      const error = await this.attempt(batch, () => this.dispatch());
      if (error === null) return;
      await this.isolate(batch, error);
    } catch (error) {
      rejectAll(batch, error);
    }
    this.dispatch();
  }

  /** A batch the database refused: halves until the records at fault stand alone. */
  private async isolate(batch: Waiter<T>[], error: unknown): Promise<void> {
    const kind = classifyWriteError(error);
    if (kind === 'outage') return rejectAll(batch, error instanceof DependencyUnavailableError ? error : new DependencyUnavailableError('database', error));
    if (kind === 'systemic') return rejectAll(batch, error);
    const [only] = batch;
    if (only && batch.length === 1) return this.setAside(only, error);
    const half = Math.ceil(batch.length / 2);
    for (const part of [batch.slice(0, half), batch.slice(half)]) {
      const partError = await this.attempt(part);
      if (partError !== null) await this.isolate(part, partError);
    }
  }

  private async setAside(waiter: Waiter<T>, error: unknown): Promise<void> {
    const { id, orgId } = this.options.describe(waiter.record);
    await this.options.deadLetters.add({
      kind: this.options.kind,
      recordId: id,
      orgId,
      reason: String((error as Error)?.message ?? error),
      payload: this.options.setAsidePayload ? this.options.setAsidePayload(waiter.record) : waiter.record,
    });
    waiter.reject(new RecordRefusedError(this.options.kind.replace(/_/g, ' '), error));
  }

  /** Commits the batch and resolves its waiters (after `committed`); returns the error (an outage as DependencyUnavailableError) instead. */
  private async attempt(batch: Waiter<T>[], committed?: () => void): Promise<unknown> {
    let statement: GroupCommitStatement;
    let rows: Record<string, unknown>[];
    try {
      statement = this.options.statement(batch.map((w) => w.record));
      rows = await this.options.db.commit(statement.sql, statement.params, { timeoutMs: this.commitTimeoutMs });
    } catch (error) {
      return error ?? new Error(`${this.options.kind} batch failed`);
    }
    statement.committed?.(rows);
    this.options.committed?.();
    committed?.();
    for (const w of batch) w.resolve();
    return null;
  }
}

function rejectAll<T>(batch: Waiter<T>[], error: unknown): void {
  for (const w of batch) w.reject(error);
}
