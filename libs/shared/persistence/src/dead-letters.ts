import type { ServiceDatabase } from './database';
import { isDatabaseUnavailable } from './unavailable';

/** Nest token of a module's SqlDeadLetters (its own schema's). */
export const DEAD_LETTERS = Symbol('DEAD_LETTERS');

/** A record the store refused, as it is set aside. */
export interface DeadLetter {
  /** What it is: `decision`, `intent_event`, `outbox`, `event:<consumer group>`… */
  kind: string;
  recordId: string | null;
  orgId: string | null;
  /** Why the store refused it (the database's message). */
  reason: string;
  /** The record as it was to be written; kept as JSON text. */
  payload: unknown;
}

export interface DeadLetterStats {
  /** Records set aside in this schema, all time (an operator deletes them once handled). */
  count: number;
  /** When the newest was set aside. */
  lastAt: Date | null;
  /** Set aside in this process but not in the table (the table write failed too). */
  unsaved: number;
}

export interface DeadLetterLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Poison records of one service schema: what the store refused is written to `dead_letters` with
 * the reason, so it blocks nothing behind it, and counted so health can show it. Logged the first
 * time each kind happens in a process (then every 100th): a poison stream must not flood the log.
 * Never throws: a dead letter that cannot be saved either is kept as a count and logged.
 */
export class SqlDeadLetters {
  private readonly seen = new Map<string, number>();
  private unsaved = 0;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly logger?: DeadLetterLogger,
  ) {}

  async add(letter: DeadLetter): Promise<void> {
    const n = (this.seen.get(letter.kind) ?? 0) + 1;
    this.seen.set(letter.kind, n);
    if (n === 1 || n % 100 === 0) {
      this.logger?.warn(
        { schema: this.db.schema, kind: letter.kind, record_id: letter.recordId, org_id: letter.orgId, reason: letter.reason, set_aside_in_process: n },
        'record refused by the store; set aside in dead_letters',
      );
    }
    try {
      await this.db.query(`INSERT INTO "${this.db.schema}"."dead_letters" ("kind", "record_id", "org_id", "reason", "payload") VALUES ($1, $2, $3, $4, $5)`, [
        letter.kind,
        letter.recordId === null ? null : wellFormed(letter.recordId).slice(0, 200),
        letter.orgId === null ? null : wellFormed(letter.orgId).slice(0, 200),
        wellFormed(letter.reason).slice(0, 2000),
        // JSON.stringify escapes lone surrogates and NUL, so the text always fits a text column.
        safeStringify(letter.payload),
      ]);
    } catch (err) {
      this.unsaved++;
      const level = isDatabaseUnavailable(err) ? 'warn' : 'error';
      this.logger?.[level]({ schema: this.db.schema, kind: letter.kind, err: (err as Error)?.message }, 'dead letter could not be saved; counted in memory');
    }
  }

  async stats(): Promise<DeadLetterStats> {
    const [row] = await this.db.query<{ n: string | number; last: Date | string | null }>(
      `SELECT count(*) AS n, max("created_at") AS last FROM "${this.db.schema}"."dead_letters"`,
    );
    return { count: Number(row?.n ?? 0) + this.unsaved, lastAt: row?.last ? new Date(row.last) : null, unsaved: this.unsaved };
  }
}

/** Text PostgreSQL takes: no lone surrogates (replaced), no NUL. */
function wellFormed(text: string): string {
  return text.toWellFormed().replaceAll('\u0000', '\uFFFD');
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (err) {
    return JSON.stringify({ unserialisable: String((err as Error)?.message ?? err) });
  }
}
