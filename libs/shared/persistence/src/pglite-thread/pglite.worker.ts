import { parentPort, workerData } from 'node:worker_threads';
import { messages, PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { PreparedCommits } from './prepared-commit';
import {
  TRANSACTION_EXPIRED,
  type StatementRequest,
  type StoreErrorFields,
  type StoreNotice,
  type StoreReply,
  type StoreRequest,
  type StoreResults,
  type StoreWorkerData,
} from './protocol';

/**
 * The embedded store's own thread: it owns the one PGlite of the process and runs what the
 * HTTP thread asks, in arrival order (PGlite queues statements and transactions itself). The
 * WASM work of every commit happens here, on the other core, while the HTTP thread answers.
 */
const port = parentPort;
if (!port) throw new Error('pglite.worker must run as a worker thread');
const { dataDir, idleTransactionMs } = workerData as StoreWorkerData;

const identity = (value: string) => value;
interface OpenTransaction {
  tx: Transaction;
  end: (commit: boolean) => void;
  /** Statements of it running now, and when the last one ended (or it began). */
  busy: number;
  idleSince: number;
  /** Rolled back by the store for idling: every later call on it fails, its end too. */
  expired: boolean;
}
const open = new Map<number, OpenTransaction>();
const ready = PGlite.create(dataDir);
const commits = ready.then((db) => new PreparedCommits(db));
/** Commit texts by the number the HTTP thread gave them (sent with their first use). */
const texts = new Map<number, string>();

const reply = (message: StoreReply) => port.postMessage(message);
const fail = (id: number, err: unknown) => reply({ id, ok: false, error: errorFields(err) });

function errorFields(err: unknown): StoreErrorFields {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error', database: false };
  const fields: StoreErrorFields = { message: err.message, name: err.name, database: err instanceof messages.DatabaseError };
  for (const [k, v] of Object.entries(err)) if (typeof v === 'string' || typeof v === 'number') fields[k] = v;
  return fields;
}

const plain = (r: Results): StoreResults => ({
  rows: r.rows,
  fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  ...(r.affectedRows !== undefined ? { affectedRows: r.affectedRows } : {}),
});

function statement(runner: PGlite | Transaction, m: StatementRequest): Promise<Results> {
  const parsers = m.raw?.length ? Object.fromEntries(m.raw.map((oid) => [oid, identity])) : undefined;
  return runner.query(m.sql, m.params ?? [], { ...(m.rowMode ? { rowMode: m.rowMode } : {}), ...(parsers ? { parsers } : {}) });
}

const expiredError = (tx: number) =>
  Object.assign(new Error(`transaction ${tx} was rolled back: idle for more than ${idleTransactionMs} ms`), { name: TRANSACTION_EXPIRED });

/** The database, or the open transaction the request names (null, and the request failed, when it is not open). */
function target(db: PGlite, id: number, tx: number | undefined): PGlite | Transaction | null {
  if (tx === undefined) return db;
  const t = open.get(tx);
  if (!t) fail(id, new Error(`transaction ${tx} is not open`));
  else if (t.expired) fail(id, expiredError(tx));
  return t && !t.expired ? t.tx : null;
}

/** Runs one statement of `tx` (or of none): a transaction is idle only while none of its statements runs. */
async function within<R>(tx: number | undefined, work: () => Promise<R>): Promise<R> {
  const t = tx === undefined ? undefined : open.get(tx);
  if (t) t.busy++;
  try {
    return await work();
  } finally {
    if (t) {
      t.busy--;
      t.idleSince = Date.now();
    }
  }
}

// An idle transaction holds PGlite's one lock, so every other caller waits on it: rolled back.
setInterval(
  () => {
    const now = Date.now();
    for (const [tx, t] of open) {
      if (t.expired || t.busy > 0 || now - t.idleSince < idleTransactionMs) continue;
      t.expired = true;
      t.end(false);
      port.postMessage({ notice: 'transaction_expired', tx, idleMs: now - t.idleSince } satisfies StoreNotice);
    }
  },
  Math.max(10, Math.min(1000, idleTransactionMs / 4)),
).unref();

async function handle(m: StoreRequest): Promise<void> {
  const db = await ready;
  switch (m.op) {
    case 'query': {
      const on = target(db, m.id, m.tx);
      if (!on) return;
      return within(m.tx, () => statement(on, m)).then((r) => reply({ id: m.id, ok: true, result: plain(r) }));
    }
    case 'commit': {
      if (m.sql !== undefined) texts.set(m.text, m.sql);
      const sql = texts.get(m.text);
      if (sql === undefined) return fail(m.id, new Error(`commit text ${m.text} is unknown`));
      return (await commits).run(sql, m.params).then((r) => reply({ id: m.id, ok: true, result: plain(r) }));
    }
    case 'exec': {
      const on = target(db, m.id, m.tx);
      if (!on) return;
      return within(m.tx, () => on.exec(m.sql)).then((rs) => reply({ id: m.id, ok: true, result: rs.map(plain) }));
    }
    case 'begin': {
      // PGlite's own transaction (its lock, BEGIN, COMMIT or ROLLBACK); it stays open until 'end'.
      let settled: ((commit: boolean) => void) | undefined;
      const done = db.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            settled = (commit) => (commit ? resolve() : reject(ROLLED_BACK));
            open.set(m.id, { tx, end: (commit) => settled?.(commit), busy: 0, idleSince: Date.now(), expired: false });
            reply({ id: m.id, ok: true });
          }),
      );
      ends.set(m.id, done);
      done.catch((err) => {
        // Could not begin at all: nothing was told "open" yet.
        if (!open.has(m.id) && err !== ROLLED_BACK) fail(m.id, err);
      });
      return;
    }
    case 'end': {
      const t = open.get(m.tx);
      const done = ends.get(m.tx);
      if (!t || !done) return fail(m.id, new Error(`transaction ${m.tx} is not open`));
      t.end(m.commit);
      try {
        await done;
        reply({ id: m.id, ok: true });
      } catch (err) {
        // A commit asked of a transaction the store rolled back is a failure: nothing of it was kept.
        if (t.expired && m.commit) fail(m.id, expiredError(m.tx));
        else if (err === ROLLED_BACK) reply({ id: m.id, ok: true });
        else fail(m.id, err);
      } finally {
        open.delete(m.tx);
        ends.delete(m.tx);
      }
      return;
    }
    case 'close':
      await db.close();
      return reply({ id: m.id, ok: true });
  }
}

const ROLLED_BACK = Symbol('rolled back');
const ends = new Map<number, Promise<unknown>>();

port.on('message', (m: StoreRequest) => {
  handle(m).catch((err) => fail(m.id, err));
});
ready.then(
  () => port.postMessage({ id: 0, ok: true }),
  (err) => port.postMessage({ id: 0, ok: false, error: errorFields(err) }),
);
