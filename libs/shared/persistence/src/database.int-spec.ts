import { randomBytes } from 'node:crypto';
import { startTcpFaultProxy, type TcpFaultProxy } from '@igw/testing';
import { openPostgresDatabase, TransactionTimeoutError, type ServiceDatabase } from './database';
import { classifyWriteError, isDatabaseUnavailable } from './unavailable';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PostgreSQL behind a fault proxy: a database that accepts and never answers (blackhole). */
describe('bounded transactions on a hung PostgreSQL', () => {
  const schema = `it_tx_${randomBytes(4).toString('hex')}`;
  let proxy: TcpFaultProxy;
  let direct: ServiceDatabase;
  let db: ServiceDatabase;

  beforeAll(async () => {
    const target = new URL(url);
    proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    direct = openPostgresDatabase(url, schema);
    await direct.query(`CREATE SCHEMA "${schema}"`);
    await direct.query(`CREATE TABLE "${schema}".marks (v text)`);
    // A short statement bound, so the tests below can tell it from the transaction bounds.
    db = openPostgresDatabase(proxy.rewrite(url), schema, 10, 300);
  });

  afterAll(async () => {
    proxy?.restore();
    await db?.close().catch(() => undefined);
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.close();
    await proxy?.close();
  });

  it('rejects as an outage within its bound, drops its connection so nothing commits later, and the pool works again after', async () => {
    // A live pooled connection first: the hang then catches it mid-transaction, the worst case.
    await db.transaction(async (tx) => tx.query('SELECT 1'));
    proxy.blackhole();
    const started = Date.now();
    const hung = db.transaction((tx) => tx.query(`INSERT INTO "${schema}".marks VALUES ('hung')`), { timeoutMs: 300 });
    const error = await hung.then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(classifyWriteError(error)).toBe('outage');
    expect(Date.now() - started).toBeLessThan(2000);

    proxy.restore();
    // Bytes the hung transaction wrote now reach the server, then the end of its connection:
    // PostgreSQL rolls back. Had the connection been kept, the INSERT would run and COMMIT follow.
    await sleep(500);
    await db.transaction((tx) => tx.query(`INSERT INTO "${schema}".marks VALUES ('after')`), { timeoutMs: 5000 });
    await sleep(200);
    const rows = await direct.query<{ v: string }>(`SELECT v FROM "${schema}".marks ORDER BY v`);
    expect(rows.map((r) => r.v)).toEqual(['after']);
  });

  it('a one-statement commit (group commit) is bounded the same way: an outage within its bound, and the pool works again after', async () => {
    await db.commit(`INSERT INTO "${schema}".marks VALUES ('c-before')`, [], { timeoutMs: 5000 });
    proxy.blackhole();
    const started = Date.now();
    const error = await db.commit(`INSERT INTO "${schema}".marks VALUES ('c-hung')`, [], { timeoutMs: 300 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(classifyWriteError(error)).toBe('outage');
    expect(Date.now() - started).toBeLessThan(2000);
    proxy.restore();
    await sleep(500);
    await db.commit(`INSERT INTO "${schema}".marks VALUES ($1)`, ['c-after'], { timeoutMs: 5000 });
    // Only the statement's own outcome is unknown (503): what was answered is committed.
    const rows = await direct.query<{ v: string }>(`SELECT v FROM "${schema}".marks WHERE v IN ('c-before', 'c-after') ORDER BY v`);
    expect(rows.map((r) => r.v)).toEqual(['c-after', 'c-before']);
  });

  it('a statement outside a transaction, raw or through the Prisma adapter, fails within the statement bound as an outage', async () => {
    const adapter = await db.prismaAdapter().connect();
    await db.query('SELECT 1');
    proxy.blackhole();
    try {
      for (const statement of [() => db.query('SELECT 1'), () => adapter.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] })]) {
        const started = Date.now();
        const error = await statement().then(
          () => null,
          (err: unknown) => err,
        );
        expect(isDatabaseUnavailable(error)).toBe(true);
        // The bound, or the pool's 3 s connect timeout when the hung connection was dropped before.
        expect(Date.now() - started).toBeLessThan(4000);
      }
    } finally {
      proxy.restore();
      await adapter.dispose();
    }
    expect(await db.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
  });

  it('without a bound a transaction waits for the database, past the statement bound (migrations and the relay may be long)', async () => {
    await db.transaction(async (tx) => tx.query('SELECT 1'));
    proxy.blackhole();
    let settled = false;
    const waiting = db.transaction((tx) => tx.query('SELECT 1')).finally(() => (settled = true));
    await sleep(700);
    expect(settled).toBe(false);
    proxy.restore();
    await waiting;
  });
});
