import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@electric-sql/pglite';
import { DependencyUnavailableError } from '@igw/kernel';
import { classifyWriteError } from '../unavailable';
import { PGliteThread, type StoreStall } from './pglite-thread';

/** The embedded store on its own thread: PGlite's semantics seen from the HTTP thread. */
describe('PGliteThread (PGlite on a worker thread)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'igw-pglite-thread-'));
  let store: PGliteThread;

  beforeAll(async () => {
    store = await PGliteThread.create(dir);
    await store.exec(`CREATE TABLE marks (id int PRIMARY KEY, v text, at timestamptz, n numeric)`);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs statements with parameters, in object or array rows, and hands the raw text of the types the caller parses', async () => {
    await store.query(`INSERT INTO marks VALUES ($1, $2, $3, $4)`, [1, 'one', new Date('2026-01-02T03:04:05.678Z'), '1.50']);
    const objects = await store.query<{ id: number; v: string; at: Date }>(`SELECT id, v, at FROM marks WHERE id = $1`, [1]);
    expect(objects.rows).toEqual([{ id: 1, v: 'one', at: new Date('2026-01-02T03:04:05.678Z') }]);
    expect(objects.fields.map((f) => f.name)).toEqual(['id', 'v', 'at']);
    // numeric (1700) parsed by the caller, as pglite-prisma-adapter does with its own parsers.
    const arrays = await store.query<unknown[]>(`SELECT id, n FROM marks`, [], { rowMode: 'array', parsers: { 1700: (text: string) => `parsed:${text}` } });
    expect(arrays.rows).toEqual([[1, 'parsed:1.50']]);
  });

  it('commits a transaction when its function resolves, and rolls it back when it throws or calls rollback()', async () => {
    await store.transaction(async (tx) => {
      await tx.query(`INSERT INTO marks (id, v) VALUES (2, 'kept')`);
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.query(`INSERT INTO marks (id, v) VALUES (3, 'thrown')`);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await store.transaction(async (tx) => {
      await tx.query(`INSERT INTO marks (id, v) VALUES (4, 'rolled back')`);
      await tx.rollback();
    });
    const rows = await store.query<{ id: number }>(`SELECT id FROM marks WHERE id > 1 ORDER BY id`);
    expect(rows.rows.map((r) => r.id)).toEqual([2]);
  });

  it('a statement waits for an open transaction, as on PGlite itself', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const tx = store.transaction(async (t) => {
      await t.query(`UPDATE marks SET v = 'tx' WHERE id = 2`);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push('tx');
    });
    await entered;
    const read = store.query<{ v: string }>(`SELECT v FROM marks WHERE id = 2`).then((r) => (order.push('read'), r.rows[0]?.v));
    await tx;
    expect(await read).toBe('tx');
    expect(order).toEqual(['tx', 'read']);
  });

  it('a refused row comes back as a database error with its SQLSTATE (a record at fault, not an outage)', async () => {
    const error = await store.query(`INSERT INTO marks (id, v) VALUES (1, 'again')`).then(
      () => null,
      (err: unknown) => err,
    );
    // PGlite's own DatabaseError class: pglite-prisma-adapter maps it to Prisma's error kinds by instanceof.
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 'marks_pkey' });
    expect(classifyWriteError(error)).toBe('record');
  });

  describe('commit (a group commit: one text, prepared once)', () => {
    const insert = `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, v text))
      INSERT INTO commits (id, v) SELECT id, v FROM r RETURNING id, v`;

    beforeAll(async () => {
      await store.exec(`CREATE TABLE commits (id int PRIMARY KEY, v text)`);
    });

    it("answers the statement's rows, again and again with new parameters", async () => {
      for (let i = 0; i < 8; i++) {
        const rows = await store.commit<{ id: number; v: string }>(insert, [JSON.stringify([{ id: 100 + i, v: `c${i}` }])]);
        expect(rows).toEqual([{ id: 100 + i, v: `c${i}` }]);
      }
      const count = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM commits`);
      expect(count.rows[0]?.n).toBe(8);
    });

    it('a refused batch is a database error with its SQLSTATE, writes nothing, and the next commit goes through', async () => {
      const error = await store
        .commit(insert, [
          JSON.stringify([
            { id: 200, v: 'new' },
            { id: 100, v: 'taken' },
          ]),
        ])
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(messages.DatabaseError);
      expect(error).toMatchObject({ code: '23505' });
      expect(classifyWriteError(error)).toBe('record');
      expect((await store.query(`SELECT 1 FROM commits WHERE id = 200`)).rows).toEqual([]);
      expect(await store.commit(insert, [JSON.stringify([{ id: 201, v: 'after' }])])).toEqual([{ id: 201, v: 'after' }]);
    });

    it("never runs inside another caller's open transaction: a rollback there cannot take the commit with it", async () => {
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      const tx = store.transaction(async (t) => {
        await t.query(`INSERT INTO commits (id, v) VALUES (300, 'rolled back')`);
        inside();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await t.rollback();
      });
      await entered;
      const committed = store.commit(insert, [JSON.stringify([{ id: 301, v: 'kept' }])]);
      await tx;
      await committed;
      const rows = await store.query<{ id: number }>(`SELECT id FROM commits WHERE id >= 300 ORDER BY id`);
      expect(rows.rows.map((r) => r.id)).toEqual([301]);
    });

    it("prepares a new text outside another caller's transaction, even one a failed statement aborted", async () => {
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      const tx = store.transaction(async (t) => {
        await t.query(`SELECT 1 / 0`).catch(() => undefined);
        inside();
        await new Promise((resolve) => setTimeout(resolve, 100));
      });
      tx.catch(() => undefined);
      await entered;
      const fresh = `INSERT INTO commits (id, v) VALUES ($1, $2) RETURNING id /* first use, while a transaction is aborted */`;
      expect(await store.commit(fresh, [302, 'prepared'])).toEqual([{ id: 302 }]);
      await tx;
    });
  });

  it('keeps its data in the directory across a close and a new thread', async () => {
    await store.close();
    store = await PGliteThread.create(dir);
    const rows = await store.query<{ id: number }>(`SELECT id FROM marks ORDER BY id`);
    expect(rows.rows.map((r) => r.id)).toEqual([1, 2]);
    // A new thread prepares its statements afresh.
    expect(await store.commit(`INSERT INTO marks (id, v) VALUES ($1, $2) RETURNING id`, [5, 'after restart'])).toEqual([{ id: 5 }]);
  }, 60_000);

  it('a store thread that dies fails what is in flight and everything after as unavailable (503), never an answer', async () => {
    const doomed = await PGliteThread.create(undefined);
    const inFlight = doomed.query(`SELECT pg_sleep(0.5)`);
    await (doomed as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(inFlight).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(doomed.query('SELECT 1')).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(classifyWriteError(await doomed.query('SELECT 1').catch((e: unknown) => e))).toBe('outage');
  }, 60_000);

  it('says what a stalled store waits on: the call behind an open transaction, and that transaction', async () => {
    const reports: StoreStall[] = [];
    const stuck = await PGliteThread.create(undefined, { afterMs: 300, report: (r) => reports.push(r) });
    try {
      let release!: () => void;
      const held = stuck.transaction(() => new Promise<void>((resolve) => (release = resolve)));
      // Until the transaction opened, release is not set.
      while (!release) await new Promise((r) => setTimeout(r, 20));
      const behind = stuck.query(`SELECT 1 AS one`);
      while (reports.length === 0) await new Promise((r) => setTimeout(r, 50));
      expect(reports).toEqual([
        {
          pending: 1,
          oldest: [{ op: 'query', sql: 'SELECT 1 AS one', waiting_ms: expect.any(Number) }],
          open_transactions: [{ tx: expect.any(Number), open_ms: expect.any(Number) }],
        },
      ]);
      expect(reports[0]!.oldest[0]!.waiting_ms).toBeGreaterThanOrEqual(300);
      release();
      await held;
      expect((await behind).rows).toEqual([{ one: 1 }]);
    } finally {
      await stuck.close();
    }
  }, 60_000);

  it('rolls back a transaction left idle past the limit: the callers behind it go on, and its owner is told 503, never a commit', async () => {
    const reports: StoreStall[] = [];
    const store2 = await PGliteThread.create(undefined, { afterMs: 60_000, idleTransactionMs: 300, report: (r) => reports.push(r) });
    try {
      await store2.exec(`CREATE TABLE kept (v text)`);
      let resume!: () => void;
      const owner = store2.transaction(async (tx) => {
        await tx.query(`INSERT INTO kept VALUES ('from the idle transaction')`);
        // Its owner waits on something else, holding PGlite's one lock meanwhile.
        await new Promise<void>((r) => (resume = r));
        await tx.query(`INSERT INTO kept VALUES ('after the wait')`);
      });
      const ownerError = owner.catch((e: unknown) => e);
      while (!resume) await new Promise((r) => setTimeout(r, 20));
      // Another caller is not held for ever: the store rolls the idle transaction back.
      expect((await store2.query(`SELECT count(*)::int AS n FROM kept`)).rows).toEqual([{ n: 0 }]);
      expect(reports).toEqual([expect.objectContaining({ rolled_back: { tx: expect.any(Number), idle_ms: expect.any(Number) } })]);
      resume();
      expect(await ownerError).toBeInstanceOf(DependencyUnavailableError);
      expect((await store2.query(`SELECT count(*)::int AS n FROM kept`)).rows).toEqual([{ n: 0 }]);
      // A transaction that keeps working is never idle, however long it takes.
      await store2.transaction(async (tx) => {
        for (let i = 0; i < 6; i++) await tx.query(`SELECT pg_sleep(0.1)`);
        await tx.query(`INSERT INTO kept VALUES ('busy, not idle')`);
      });
      expect((await store2.query(`SELECT v FROM kept`)).rows).toEqual([{ v: 'busy, not idle' }]);
    } finally {
      await store2.close();
    }
  }, 60_000);
});
