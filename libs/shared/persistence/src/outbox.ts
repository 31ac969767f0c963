import type { EventEnvelope } from '@igw/contracts';
import type { CommittedOutboxRow, OutboxNotifier } from '@igw/events';
import type { ServiceDatabase, SqlRunner } from './database';

/** What a Prisma transaction client offers; the outbox row joins the caller's transaction. */
export interface RawExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/**
 * A raw transaction (`ServiceDatabase.transaction`) as the RawExecutor the outbox helpers take, so
 * hot write paths can skip Prisma and still write their outbox rows the one way.
 */
export function sqlExecutor(tx: SqlRunner): RawExecutor {
  return {
    $executeRawUnsafe: async (q, ...v) => (await tx.query<{ n: number }>(`WITH r AS (${q} RETURNING 1) SELECT count(*)::int AS n FROM r`, v))[0]?.n ?? 0,
  };
}

/** Writes events into the service's outbox inside the transaction that changes the state. */
export class OutboxWriter {
  constructor(private readonly schema: string) {}

  /**
   * The one outbox INSERT, over a JSON array of envelopes passed as `param` (topic = type,
   * key = org_id, the envelope as is), in array order. Group-commit writers embed it in their own
   * statement; `where` (over the element `e`) keeps only some rows, e.g. those of new records.
   */
  insertSql(param: string, where?: string): string {
    return `INSERT INTO "${this.schema}"."outbox_events" ("id", "topic", "key", "envelope")
      SELECT e->>'id', e->>'type', e->>'org_id', e FROM jsonb_array_elements(${param}::jsonb) WITH ORDINALITY AS x(e, n)
      ${where ? `WHERE ${where} ` : ''}ORDER BY n`;
  }

  /** `insertSql` as the statement's last part, answering each written row's seq and id (for `committedRows`). */
  insertReturningSql(param: string, where?: string): string {
    return `${this.insertSql(param, where)} RETURNING "seq"::text AS "seq", "id"`;
  }

  /** Adds events in the caller's transaction (Prisma or raw), one statement whatever their number. */
  async add(tx: RawExecutor, events: readonly EventEnvelope[]): Promise<void> {
    if (events.length > 0) await tx.$executeRawUnsafe(this.insertSql('$1'), JSON.stringify(events));
  }

  /** `add` for a raw transaction such as a GroupCommitWriter batch. */
  async addBatch(tx: SqlRunner, events: readonly EventEnvelope[]): Promise<void> {
    if (events.length > 0) await tx.query(this.insertSql('$1'), [JSON.stringify(events)]);
  }
}

/**
 * The rows `insertReturningSql` reports, with their envelopes (from the statement's own events), in
 * seq order: what a writer hands over to its relay (`OutboxNotifier.handOver`).
 */
export function committedRows(written: readonly { seq: string; id: string }[], events: readonly EventEnvelope[]): CommittedOutboxRow[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const rows: CommittedOutboxRow[] = [];
  for (const w of written) {
    const envelope = byId.get(w.id);
    if (envelope) rows.push({ seq: w.seq, id: w.id, key: envelope.org_id, envelope });
  }
  // RETURNING order is not promised: seqs of one statement, compared as numbers.
  return rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
}

/** After a commit whose last part was `insertReturningSql`: its rows go to the relay (a nudge if it takes none). */
export function handOverCommitted(notifier: OutboxNotifier, written: readonly Record<string, unknown>[], events: readonly EventEnvelope[]): void {
  const rows = committedRows(written as readonly { seq: string; id: string }[], events);
  if (notifier.handOver) notifier.handOver(rows);
  else if (rows.length > 0) notifier.nudge();
}

export interface OutboxRow {
  id: string;
  key: string;
  envelope: EventEnvelope;
}

/**
 * Reads unpublished rows in commit order and marks them published once the bus accepted them.
 * On PostgreSQL the rows stay locked (SKIP LOCKED) while they are being published so replicas
 * never publish the same row concurrently; PGlite has one process and needs no lock.
 */
export class SqlOutboxSource {
  /** PGlite: one process, so this relay is the only reader and every writer hands over to it. */
  readonly exclusive: boolean;

  constructor(private readonly db: ServiceDatabase) {
    this.exclusive = db.kind === 'pglite';
  }

  async markPublished(seqs: readonly string[]): Promise<void> {
    await this.db.query(`UPDATE "${this.db.schema}"."outbox_events" SET published_at = now() WHERE seq = ANY($1::bigint[]) AND published_at IS NULL`, [seqs]);
  }

  async drain(limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number> {
    const t = `"${this.db.schema}"."outbox_events"`;
    // Returns the failure instead of throwing so the attempt count commits with the lock release.
    const run = async (q: SqlRunner, lock: boolean): Promise<{ count: number; error?: unknown }> => {
      const rows = await q.query<{ seq: string; id: string; key: string; envelope: EventEnvelope | string }>(
        `SELECT seq, id, key, envelope FROM ${t} WHERE published_at IS NULL ORDER BY seq LIMIT ${Number(limit)}${lock ? ' FOR UPDATE SKIP LOCKED' : ''}`,
      );
      if (rows.length === 0) return { count: 0 };
      const seqs = rows.map((r) => r.seq);
      const parsed = rows.map((r) => ({ id: r.id, key: r.key, envelope: typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope }));
      try {
        await publish(parsed);
      } catch (error) {
        const message = String((error as Error)?.message ?? error).slice(0, 500);
        await q.query(`UPDATE ${t} SET attempts = attempts + 1, last_error = $2 WHERE seq = ANY($1::bigint[])`, [seqs, message]);
        return { count: 0, error };
      }
      await q.query(`UPDATE ${t} SET published_at = now() WHERE seq = ANY($1::bigint[])`, [seqs]);
      return { count: rows.length };
    };
    // PGlite: a transaction would block every other query of the process while in-process
    // handlers run, and there is no second relay to race with.
    const result = this.db.kind === 'postgres' ? await this.db.transaction((tx) => run(tx, true)) : await run(this.db, false);
    if (result.error !== undefined) throw result.error;
    return result.count;
  }

  async pending(): Promise<number> {
    const [row] = await this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM "${this.db.schema}"."outbox_events" WHERE published_at IS NULL`);
    return Number(row?.n ?? 0);
  }

  /** Seconds since the oldest unpublished row was committed; 0 when none waits (health). */
  async oldestPendingAgeS(): Promise<number> {
    const [row] = await this.db.query<{ age: string | number | null }>(
      `SELECT extract(epoch FROM now() - "created_at") AS age FROM "${this.db.schema}"."outbox_events" WHERE published_at IS NULL ORDER BY seq LIMIT 1`,
    );
    return Math.max(0, Number(row?.age ?? 0));
  }

  /** Published rows are kept a while for inspection, then removed. */
  async purgePublished(olderThanHours = 72): Promise<void> {
    await this.db.query(
      `DELETE FROM "${this.db.schema}"."outbox_events" WHERE published_at IS NOT NULL AND published_at < now() - ($1 || ' hours')::interval`,
      [String(olderThanHours)],
    );
  }
}

/**
 * Idempotent consumption: records (consumer, event id) in the same transaction as the effect.
 * Returns false, doing nothing, when the event was already applied.
 */
export async function applyOnce(tx: RawExecutor, schema: string, consumer: string, eventId: string, effect: () => Promise<void>): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO "${schema}"."processed_events" ("consumer", "event_id") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    consumer,
    eventId,
  );
  if (inserted === 0) return false;
  await effect();
  return true;
}
