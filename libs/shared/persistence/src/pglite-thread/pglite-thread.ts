import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { DependencyUnavailableError } from '@igw/kernel';
import {
  TRANSACTION_EXPIRED,
  type StoreErrorFields,
  type StoreNotice,
  type StoreReply,
  type StoreRequest,
  type StoreResults,
  type StoreWorkerData,
} from './protocol';

type Pending = { resolve: (value: StoreResults | StoreResults[] | undefined) => void; reject: (err: unknown) => void; request?: Request; at: number };
type Parsers = NonNullable<QueryOptions['parsers']>;
/** Distributes Omit over the union, so each request keeps its own fields. */
type Request = StoreRequest extends infer R ? (R extends StoreRequest ? Omit<R, 'id'> : never) : never;

/**
 * The embedded PGlite, run on a worker thread of its own (pglite.worker.ts), seen from the HTTP
 * thread through the part of PGlite's API the services and pglite-prisma-adapter use: `query`,
 * `exec`, `transaction` (with `query`, `exec`, `rollback`) and `close`. Same database, same
 * order, same durability; the WASM work of each commit no longer runs on the thread that
 * answers requests.
 *
 * A store thread that dies (or cannot open the data directory) fails every pending and later
 * call with DependencyUnavailableError: a 503, never an answer without its record.
 */
export class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private dead: Error | null = null;
  /** Commit texts the store thread has been sent, by number (messages arrive in order). */
  private readonly texts = new Map<string, number>();
  readonly waitReady: Promise<void>;
  /** Transactions open on the store thread (their lock blocks every other statement), by id: since when. */
  private readonly openSince = new Map<number, number>();
  private watchdog?: NodeJS.Timeout;
  private lastStallReport = 0;

  private constructor(
    dataDir: string | undefined,
    private readonly stall: StallWatch,
  ) {
    const compiled = join(__dirname, 'pglite.worker.js');
    // From the compiled tree the worker is plain JS; from TypeScript sources (tests) swc loads it.
    const [file, execArgv] = existsSync(compiled) ? [compiled, []] : [join(__dirname, 'pglite.worker.ts'), ['-r', '@swc-node/register']];
    this.worker = new Worker(file, {
      workerData: { dataDir, idleTransactionMs: stall.idleTransactionMs ?? IDLE_TRANSACTION_MS } satisfies StoreWorkerData,
      execArgv,
    });
    this.waitReady = new Promise<void>((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject, at: Date.now() }));
    this.worker.on('message', (m: StoreReply | StoreNotice) => ('notice' in m ? this.expired(m) : this.settle(m)));
    this.worker.on('error', (err) => this.die(err));
    this.worker.on('exit', (code) => this.die(new Error(`store thread exited (${code})`)));
  }

  /** Starts the thread and resolves once the database is open (a cold start takes a couple of seconds). */
  static async create(dataDir: string | undefined, stall: StallWatch = { afterMs: STALL_MS, report: logStall }): Promise<PGliteThread> {
    const store = new PGliteThread(dataDir, stall);
    await store.waitReady;
    store.worker.unref();
    // Watched once open: a cold start takes seconds and is no stall.
    store.watchdog = setInterval(() => store.reportStall(), Math.min(stall.afterMs, STALL_CHECK_MS));
    store.watchdog.unref();
    return store;
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.statement<T>(undefined, sql, params, options);
  }

  /** One statement committed on its own; its text is parsed and planned once (see PreparedCommits). */
  async commit<T>(sql: string, params: unknown[]): Promise<T[]> {
    const known = this.texts.get(sql);
    const text = known ?? this.texts.size + 1;
    if (known === undefined) this.texts.set(sql, text);
    return ((await this.call({ op: 'commit', text, ...(known === undefined ? { sql } : {}), params })) as StoreResults).rows as T[];
  }

  async exec(sql: string): Promise<Results[]> {
    return (await this.call({ op: 'exec', sql })) as Results[];
  }

  /** fn's work is one transaction: committed when fn resolves, rolled back when it throws or calls rollback(). */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    // The transaction's id is its 'begin' request's id: the next one call() hands out.
    const tx = this.nextId;
    await this.call({ op: 'begin' });
    this.openSince.set(tx, Date.now());
    let rolledBack = false;
    const handle = {
      query: <R>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => this.statement<R>(tx, sql, params, options),
      exec: async (sql: string) => (await this.call({ op: 'exec', tx, sql })) as Results[],
      rollback: async () => {
        rolledBack = true;
      },
      get closed() {
        return rolledBack;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      try {
        result = await fn(handle);
      } catch (err) {
        await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw err;
      }
      await this.call({ op: 'end', tx, commit: !rolledBack });
    } finally {
      this.openSince.delete(tx);
    }
    return result;
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    if (this.dead) return;
    await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  /** As the PGlite the Prisma adapter expects (the part of it this class provides). */
  asPGlite(): PGlite {
    return this as unknown as PGlite;
  }

  private async statement<T>(tx: number | undefined, sql: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const parsers = options.parsers;
    const raw = parsers ? Object.keys(parsers).map(Number) : undefined;
    const result = (await this.call({ op: 'query', ...(tx !== undefined ? { tx } : {}), sql, params, rowMode: options.rowMode, raw })) as StoreResults;
    if (parsers && raw?.length) parseRaw(result, parsers, options.rowMode === 'array');
    return result as Results<T>;
  }

  private call(request: Request): Promise<StoreResults | StoreResults[] | undefined> {
    if (this.dead) return Promise.reject(new DependencyUnavailableError('database', this.dead));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject, request, at: Date.now() });
      this.worker.postMessage({ ...request, id } as StoreRequest);
    });
  }

  private settle(m: StoreReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    // Only calls in flight keep the process alive.
    if (this.pending.size === 0 && m.id !== 0) this.worker.unref();
    if (m.ok) p.resolve(m.result);
    else p.reject(toError(m.error));
  }

  /** Calls unanswered past STALL_MS, and the transactions open meanwhile: logged, at most every STALL_REPORT_EVERY_MS. */
  private reportStall(now = Date.now()): void {
    if (now - this.lastStallReport < STALL_REPORT_EVERY_MS) return;
    const stalled = [...this.pending.values()].filter((p) => now - p.at >= this.stall.afterMs);
    if (stalled.length === 0) return;
    this.lastStallReport = now;
    this.stall.report({
      pending: this.pending.size,
      oldest: stalled.slice(0, 5).map((p) => ({ ...describe(p.request), waiting_ms: now - p.at })),
      open_transactions: [...this.openSince].map(([tx, since]) => ({ tx, open_ms: now - since })),
    });
  }

  private expired(notice: StoreNotice): void {
    this.stall.report({
      pending: this.pending.size,
      oldest: [],
      open_transactions: [{ tx: notice.tx, open_ms: Date.now() - (this.openSince.get(notice.tx) ?? Date.now()) }],
      rolled_back: { tx: notice.tx, idle_ms: notice.idleMs },
    });
  }

  private die(err: Error): void {
    if (this.dead) return;
    this.dead = err;
    for (const p of this.pending.values()) p.reject(new DependencyUnavailableError('database', err));
    this.pending.clear();
  }
}

/** A store call unanswered this long is reported (a commit takes milliseconds). */
const STALL_MS = 10_000;
const STALL_CHECK_MS = 5_000;
const STALL_REPORT_EVERY_MS = 30_000;

/** When a call counts as stalled, and where the report goes (the log by default). */
export interface StallWatch {
  afterMs: number;
  report(stall: StoreStall): void;
  /** A transaction idle this long is rolled back by the store thread (default IDLE_TRANSACTION_MS). */
  idleTransactionMs?: number;
}

/**
 * PostgreSQL's idle_in_transaction_session_timeout, for the one PGlite session: a transaction
 * whose owner stopped sending statements would hold every other caller of the process (and every
 * org) behind its lock. Prisma's own interactive-transaction limit is 5 s.
 */
export const IDLE_TRANSACTION_MS = 10_000;

/** What a stalled store is waiting on: statements by their first words (never parameters), and the open transactions. */
export interface StoreStall {
  pending: number;
  oldest: { op: string; tx?: number; sql?: string; waiting_ms: number }[];
  open_transactions: { tx: number; open_ms: number }[];
  /** The store rolled this transaction back: idle past IDLE_TRANSACTION_MS. */
  rolled_back?: { tx: number; idle_ms: number };
}

function describe(r: Request | undefined): { op: string; tx?: number; sql?: string } {
  if (!r) return { op: 'open' };
  const sql = 'sql' in r && r.sql ? r.sql.replace(/\s+/g, ' ').slice(0, 80) : undefined;
  return {
    op: r.op,
    ...('tx' in r && r.tx !== undefined ? { tx: r.tx } : {}),
    ...(sql ? { sql } : r.op === 'commit' ? { sql: `prepared commit #${r.text}` } : {}),
  };
}

/** One line in the services' log format (pino JSON, level warn): the store has no logger of its own. */
function logStall(report: StoreStall): void {
  const msg = report.rolled_back ? 'stall: the embedded store rolled back an idle transaction' : 'stall: the embedded store has not answered';
  process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), ...report, msg })}\n`);
}

/** The caller's parsers over the text the store returned for their types. */
function parseRaw(result: StoreResults, parsers: Parsers, arrayRows: boolean): void {
  result.fields.forEach((field, i) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    const key = arrayRows ? i : field.name;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const v = row[key];
      if (typeof v === 'string') row[key] = (parse as (text: string, typeId: number) => unknown)(v, field.dataTypeID);
    }
  });
}

/** A database error comes back as PGlite's DatabaseError (SQLSTATE and all), as the callers and the Prisma adapter expect. */
function toError(fields: StoreErrorFields): Error {
  const { message, name, database, ...rest } = fields;
  if (name === TRANSACTION_EXPIRED) return new DependencyUnavailableError('database', new Error(message));
  if (database) return Object.assign(new messages.DatabaseError(message, 0, 'error'), rest);
  return Object.assign(new Error(message), { name }, rest);
}
