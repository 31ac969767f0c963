import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PGliteThread } from './pglite-thread/pglite-thread';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient, type QueryConfig } from 'pg';

/** The few raw operations infrastructure code needs (migrations, outbox relay, health). */
export interface SqlRunner {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

export interface TransactionOptions {
  /**
   * Longest the transaction may take, BEGIN to COMMIT (PostgreSQL). Past it the transaction
   * rejects with TransactionTimeoutError and its connection is destroyed, so a database that
   * accepts and never answers cannot hold the caller (or a pool slot) for ever. Unbounded when
   * unset: migrations and the outbox relay may legitimately take long.
   */
  timeoutMs?: number;
}

/**
 * Longest one statement outside a transaction — raw (`query`) or Prisma's — may wait for its
 * reply: a database that accepts and never answers must not hold a request (or its pooled
 * connection) for ever. The connection of a statement that times out is destroyed.
 */
export const STATEMENT_TIMEOUT_MS = 5000;
/** setTimeout's largest delay: what "no bound" is to pg's per-query timeout (0 means "the pool's"). */
const NO_TIMEOUT_MS = 2_147_483_647;

/** A bounded transaction ran out of time: the database is hung or unreachable, the outcome unknown. */
export class TransactionTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
}

/**
 * One service's view of the database: its own PostgreSQL schema, a Prisma driver adapter
 * bound to that schema, and raw SQL for infrastructure. PostgreSQL in distributed mode;
 * PGlite (one instance per process, shared by every service schema) in embedded mode.
 */
export interface ServiceDatabase extends SqlRunner {
  readonly schema: string;
  readonly kind: 'postgres' | 'pglite';
  prismaAdapter(): SqlDriverAdapterFactory;
  /** Runs fn in one transaction. PGlite serialises all work in the process while it runs. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One statement, committed on its own: a single statement is atomic without BEGIN and COMMIT,
   * so a group commit is one round trip instead of three. Bounded like a transaction. Answers the
   * statement's rows (its RETURNING), if any.
   */
  commit<R = Record<string, unknown>>(sql: string, params: unknown[], options?: TransactionOptions): Promise<R[]>;
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A prepared statement's name for a text (one per text, so a connection never sees a name reused). */
const preparedNames = new Map<string, string>();
function preparedName(sql: string): string {
  let name = preparedNames.get(sql);
  if (!name) {
    name = `igw_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

export function assertSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  return schema;
}

class PostgresServiceDatabase implements ServiceDatabase {
  readonly kind = 'postgres' as const;
  constructor(
    readonly schema: string,
    private readonly pool: Pool,
  ) {}

  prismaAdapter(): SqlDriverAdapterFactory {
    return new PrismaPg(this.pool, { schema: this.schema });
  }

  async query<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query(sql, params)).rows as R[];
  }

  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.onClient(true, fn, options);
  }

  /** A named prepared statement: a group commit's one fixed text is parsed and planned once per connection. */
  async commit<R>(sql: string, params: unknown[], options: TransactionOptions = {}): Promise<R[]> {
    return this.onClient(false, (c) => c.query<R>(sql, params), options, preparedName(sql));
  }

  /** fn on a connection of its own (in BEGIN … COMMIT when `wrap`), bounded by options.timeoutMs. */
  private async onClient<T>(wrap: boolean, fn: (tx: SqlRunner) => Promise<T>, options: TransactionOptions, name?: string): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    let released = false;
    // With an error the pool destroys the client instead of keeping it: a connection whose query
    // never returned (or whose ROLLBACK failed) must not serve the next transaction.
    const release = (broken?: Error) => {
      if (released) return;
      released = true;
      client.release(broken);
    };
    const work = (async () => {
      // Statements of a transaction are bounded by the transaction's own deadline (or none: a
      // migration may take long), not by the pool's per-statement one.
      const run = (text: string, values: unknown[] = []) =>
        client.query({ text, values, query_timeout: NO_TIMEOUT_MS, ...(name && !wrap ? { name } : {}) } as QueryConfig);
      try {
        if (wrap) await run('BEGIN');
        const result = await fn({ query: async (sql, params = []) => (await run(sql, params)).rows });
        if (wrap) await run('COMMIT');
        release();
        return result;
      } catch (err) {
        if (!released) {
          const rolledBack =
            !wrap ||
            (await run('ROLLBACK').then(
              () => true,
              () => false,
            ));
          release(rolledBack ? undefined : (err as Error));
        }
        throw err;
      }
    })();
    if (options.timeoutMs === undefined) return work;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new TransactionTimeoutError(`transaction timed out after ${options.timeoutMs} ms`);
        // Destroying the connection fails the query in flight (so `work` settles) and, unless
        // COMMIT already reached the server, makes the server roll the transaction back.
        release(error);
        reject(error);
      }, options.timeoutMs);
    });
    work.catch(() => undefined);
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async ping(timeoutMs = 1000): Promise<boolean> {
    return withTimeout(
      this.pool.query('SELECT 1').then(() => true),
      timeoutMs,
    ).catch(() => false);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** pglite-prisma-adapter has no schema option; the adapter reads it from `options.schema`. */
class SchemaPGliteFactory extends PrismaPGlite {
  constructor(
    client: PGliteThread,
    private readonly schema: string,
  ) {
    super(client.asPGlite());
  }
  override async connect() {
    const adapter = await super.connect();
    (adapter as unknown as { options: { schema: string } }).options = { schema: this.schema };
    return adapter;
  }
}

class PGliteServiceDatabase implements ServiceDatabase {
  readonly kind = 'pglite' as const;
  constructor(
    readonly schema: string,
    private readonly db: PGliteThread,
  ) {}

  prismaAdapter(): SqlDriverAdapterFactory {
    return new SchemaPGliteFactory(this.db, this.schema);
  }

  async query<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.db.query<R>(sql, params)).rows;
  }

  /**
   * Bounded as on PostgreSQL: PGlite has no connection to hang, but one session, so a commit can
   * wait behind another caller's transaction. Past the bound the outcome is unknown (the statement
   * may still run), which a 503 allows.
   */
  async commit<R>(sql: string, params: unknown[], options: TransactionOptions = {}): Promise<R[]> {
    const work = this.db.commit<R>(sql, params);
    if (options.timeoutMs === undefined) return work;
    return withTimeout(work, options.timeoutMs, () => new TransactionTimeoutError(`commit timed out after ${options.timeoutMs} ms`));
  }

  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => fn({ query: async (sql, params = []) => (await tx.query(sql, params)).rows as never }));
  }

  async ping(): Promise<boolean> {
    return this.db.query('SELECT 1').then(
      () => true,
      () => false,
    );
  }

  async close(): Promise<void> {
    // The PGlite instance is shared by every service of the process: closeEmbeddedDatabase() ends it.
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, error: () => Error = () => new Error('timeout')): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const t = setTimeout(() => reject(error()), ms);
    p.then(
      (v) => (clearTimeout(t), resolvePromise(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

let embedded: { dir: string; db: Promise<PGliteThread> } | undefined;

/** One PGlite per process, on a thread of its own: it is single-session, so every service schema shares it. */
export function openEmbeddedDatabase(dataDir: string, schema: string): ServiceDatabase {
  const dir = dataDir === 'memory://' ? dataDir : resolve(dataDir, 'pglite');
  if (!embedded) {
    if (dir !== 'memory://') mkdirSync(dir, { recursive: true, mode: 0o700 });
    embedded = { dir, db: PGliteThread.create(dir === 'memory://' ? undefined : dir) };
  } else if (embedded.dir !== dir) {
    throw new Error(`embedded database already open at ${embedded.dir}`);
  }
  const pending = embedded.db;
  // Hand out a facade that waits for the shared instance to be ready.
  return new LazyDatabase(
    schema,
    'pglite',
    pending.then((db) => new PGliteServiceDatabase(assertSchemaName(schema), db)),
  );
}

export async function closeEmbeddedDatabase(): Promise<void> {
  if (!embedded) return;
  const db = await embedded.db;
  embedded = undefined;
  await db.close();
}

export function openPostgresDatabase(url: string, schema: string, poolSize = 10, statementTimeoutMs = STATEMENT_TIMEOUT_MS): ServiceDatabase {
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    // Client-side (a hung server or network never answers a server-side statement_timeout either).
    query_timeout: statementTimeoutMs,
    idleTimeoutMillis: 30000,
    // Unqualified raw SQL resolves inside the service's own schema.
    options: `-c search_path=${assertSchemaName(schema)}`,
  });
  // A client losing its server (idle or checked out) must not crash the process: the query in
  // flight rejects, and the pool replaces the client on the next checkout.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new PostgresServiceDatabase(schema, pool);
}

class LazyDatabase implements ServiceDatabase {
  private resolved?: ServiceDatabase;
  constructor(
    readonly schema: string,
    readonly kind: 'postgres' | 'pglite',
    private readonly inner: Promise<ServiceDatabase>,
  ) {
    inner.then((d) => (this.resolved = d)).catch(() => undefined);
  }
  async ready(): Promise<ServiceDatabase> {
    return this.resolved ?? this.inner;
  }
  prismaAdapter(): SqlDriverAdapterFactory {
    if (!this.resolved) throw new Error('database not ready: await ready() first');
    return this.resolved.prismaAdapter();
  }
  async query<R>(sql: string, params?: unknown[]): Promise<R[]> {
    return (await this.ready()).query<R>(sql, params);
  }
  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return (await this.ready()).transaction(fn, options);
  }
  async commit<R>(sql: string, params: unknown[], options?: TransactionOptions): Promise<R[]> {
    return (await this.ready()).commit<R>(sql, params, options);
  }
  async ping(timeoutMs?: number): Promise<boolean> {
    return (await this.ready()).ping(timeoutMs);
  }
  async close(): Promise<void> {
    return (await this.ready()).close();
  }
}

/** Resolves once the database is usable (PGlite cold start takes a couple of seconds). */
export async function databaseReady(db: ServiceDatabase): Promise<void> {
  if (db instanceof LazyDatabase) await db.ready();
}
