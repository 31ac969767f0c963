import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { DependencyUnavailableError } from '@igw/kernel';
import type { StoreErrorFields, StoreReply, StoreRequest, StoreResults, StoreWorkerData } from './protocol';

type Pending = { resolve: (value: StoreResults | StoreResults[] | undefined) => void; reject: (err: unknown) => void };
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

  private constructor(dataDir: string | undefined) {
    const compiled = join(__dirname, 'pglite.worker.js');
    // From the compiled tree the worker is plain JS; from TypeScript sources (tests) swc loads it.
    const [file, execArgv] = existsSync(compiled) ? [compiled, []] : [join(__dirname, 'pglite.worker.ts'), ['-r', '@swc-node/register']];
    this.worker = new Worker(file, { workerData: { dataDir } satisfies StoreWorkerData, execArgv });
    this.waitReady = new Promise<void>((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    this.worker.on('message', (m: StoreReply) => this.settle(m));
    this.worker.on('error', (err) => this.die(err));
    this.worker.on('exit', (code) => this.die(new Error(`store thread exited (${code})`)));
  }

  /** Starts the thread and resolves once the database is open (a cold start takes a couple of seconds). */
  static async create(dataDir: string | undefined): Promise<PGliteThread> {
    const store = new PGliteThread(dataDir);
    await store.waitReady;
    store.worker.unref();
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
      result = await fn(handle);
    } catch (err) {
      await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw err;
    }
    await this.call({ op: 'end', tx, commit: !rolledBack });
    return result;
  }

  async close(): Promise<void> {
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
      this.pending.set(id, { resolve, reject });
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

  private die(err: Error): void {
    if (this.dead) return;
    this.dead = err;
    for (const p of this.pending.values()) p.reject(new DependencyUnavailableError('database', err));
    this.pending.clear();
  }
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
  if (database) return Object.assign(new messages.DatabaseError(message, 0, 'error'), rest);
  return Object.assign(new Error(message), { name }, rest);
}
