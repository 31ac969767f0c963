/**
 * Messages between the HTTP thread and the thread that owns the embedded PGlite. Plain data
 * only (structured clone): a caller's value parsers stay on its side, and the store returns
 * the raw text of those types for the caller to parse.
 */
export type RowMode = 'array' | 'object';

export interface StatementRequest {
  sql: string;
  params?: unknown[];
  rowMode?: RowMode;
  /** Type OIDs the caller parses itself: the store returns their text as is. */
  raw?: number[];
}

export type StoreRequest =
  | ({ id: number; op: 'query'; tx?: number } & StatementRequest)
  | { id: number; op: 'exec'; tx?: number; sql: string }
  /**
   * One statement committed on its own, its text prepared once (group commits). The text is sent
   * with its first use only; later ones name it by `text` (it is several kilobytes, cloned per message).
   */
  | { id: number; op: 'commit'; text: number; sql?: string; params: unknown[] }
  /** Opens a transaction; its id is the request's id. */
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

export interface StoreField {
  name: string;
  dataTypeID: number;
}

export interface StoreResults {
  rows: unknown[];
  fields: StoreField[];
  affectedRows?: number;
}

/** An error as plain fields: message, name and every SQLSTATE field the database gave. */
export type StoreErrorFields = { message: string; name: string; database: boolean } & Record<string, unknown>;

export type StoreReply = { id: number; ok: true; result?: StoreResults | StoreResults[] } | { id: number; ok: false; error: StoreErrorFields };

/** Said by the store thread unasked: a transaction left idle too long was rolled back (its lock held every other statement). */
export interface StoreNotice {
  notice: 'transaction_expired';
  tx: number;
  idleMs: number;
}

/** The error name of a call on (or the end of) a transaction the store rolled back for idling. */
export const TRANSACTION_EXPIRED = 'TransactionExpired';

export interface StoreWorkerData {
  /** Directory of the data, or undefined for memory. */
  dataDir: string | undefined;
  /**
   * A transaction with no statement running for this long is rolled back (PostgreSQL's
   * idle_in_transaction_session_timeout): PGlite has one session, so its lock holds every caller.
   */
  idleTransactionMs: number;
}
