import { DependencyUnavailableError, RecordRefusedError } from '@igw/kernel';
import { GatedFakeDatabase } from '@igw/testing/unit';
import { TransactionTimeoutError, type ServiceDatabase, type TransactionOptions } from './database';
import type { DeadLetter, SqlDeadLetters } from './dead-letters';
import { GroupCommitWriter } from './group-commit.writer';

interface Rec {
  id: string;
  orgId: string;
}
let n = 0;
const rec = (orgId = 'org_a'): Rec => ({ id: `r_${String(++n).padStart(6, '0')}`, orgId });

/** Sees each commit's batch; `refuse` decides which batches fail; `hold` keeps the next ones open. */
class FakeDatabase extends GatedFakeDatabase {
  options: (TransactionOptions | undefined)[] = [];
  statements: string[] = [];

  constructor() {
    super('svc');
  }

  async commit(sql: string, params: unknown[], options?: TransactionOptions): Promise<void> {
    this.options.push(options);
    this.statements.push(sql);
    await this.settle(JSON.parse(String(params[0])) as string[]);
  }
}

const sqlError = (code: string, message = 'refused') => Object.assign(new Error(message), { code });
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommitWriter', () => {
  let db: FakeDatabase;
  let letters: DeadLetter[];
  let writer: GroupCommitWriter<Rec>;
  let commits: number;

  beforeEach(() => {
    db = new FakeDatabase();
    letters = [];
    commits = 0;
    writer = new GroupCommitWriter<Rec>({
      kind: 'thing',
      db: db as unknown as ServiceDatabase,
      deadLetters: { add: async (l: DeadLetter) => void letters.push(l) } as unknown as SqlDeadLetters,
      describe: (r) => ({ id: r.id, orgId: r.orgId }),
      statement: (batch) => ({ sql: 'insert', params: [JSON.stringify(batch.map((r) => r.id))] }),
      committed: () => commits++,
    });
  });

  it('bounds every transaction; one that times out is an outage: its batch answers 503, nothing is set aside, the next batch commits', async () => {
    db.refuse = (ids) => (ids.length === 2 ? new TransactionTimeoutError('transaction timed out after 3000 ms') : null);
    const [a, b] = [rec(), rec()];
    const results = await Promise.allSettled([writer.submit(a), writer.submit(b)]);
    expect(results.map((r) => r.status === 'rejected' && r.reason instanceof DependencyUnavailableError)).toEqual([true, true]);
    expect(letters).toEqual([]);
    expect(db.attempts).toEqual([[a.id, b.id]]);
    const c = rec();
    await writer.submit(c);
    expect(db.committed).toEqual([[c.id]]);
    expect(db.options.map((o) => o?.timeoutMs)).toEqual([3000, 3000]);
  });

  it('writes a lone record on the next turn of the event loop and resolves after the commit', async () => {
    db.hold();
    let done = false;
    const r = rec();
    const submitted = writer.submit(r).then(() => (done = true));
    expect(db.attempts).toEqual([]);
    await turn();
    await turn();
    expect(db.attempts).toEqual([[r.id]]);
    expect(done).toBe(false);
    db.release();
    await submitted;
    expect(db.committed).toEqual([[r.id]]);
    expect(commits).toBe(1);
  });

  it('records of one turn share a transaction; those arriving during a flush form the next one', async () => {
    db.hold();
    const first = Array.from({ length: 30 }, () => rec());
    const firstDone = Promise.all(first.map((r) => writer.submit(r)));
    await turn();
    const second = Array.from({ length: 70 }, () => rec());
    const secondDone = Promise.all(second.map((r) => writer.submit(r)));
    await turn();
    expect(db.attempts).toEqual([first.map((r) => r.id)]);
    db.release();
    await Promise.all([firstDone, secondDone]);
    expect(db.committed).toEqual([first.map((r) => r.id), second.map((r) => r.id)]);
  });

  it('sends the next batch the moment one commits, before that batch’s callers are answered (the database never waits for the answers)', async () => {
    const log: string[] = [];
    db.hold();
    const a = rec();
    const aAnswered = writer.submit(a).then(() => log.push(`answered ${a.id}`));
    await turn();
    const b = rec();
    const bAnswered = writer.submit(b).then(() => log.push(`answered ${b.id}`));
    await turn();
    const commit = db.commit.bind(db);
    db.commit = async (sql, params, options) => {
      log.push(`sent ${String(JSON.parse(String(params[0])))}`);
      return commit(sql, params, options);
    };
    db.release();
    await Promise.all([aAnswered, bAnswered]);
    expect(log).toEqual([`sent ${b.id}`, `answered ${a.id}`, `answered ${b.id}`]);
    expect(db.committed).toEqual([[a.id], [b.id]]);
  });

  it('never puts more than maxBatch (500) records in one transaction', async () => {
    await Promise.all(Array.from({ length: 1234 }, () => writer.submit(rec())));
    expect(db.committed.map((b) => b.length)).toEqual([500, 500, 234]);
  });

  it('an unreachable database rejects the whole batch with DependencyUnavailableError, without splitting it or setting anything aside', async () => {
    db.refuse = () => sqlError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => writer.submit(rec())));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof DependencyUnavailableError)).toBe(true);
    expect(db.attempts.map((b) => b.length)).toEqual([8]);
    expect(letters).toEqual([]);
    db.refuse = () => null;
    await writer.submit(rec());
    expect(commits).toBe(1);
  });

  it.each([
    ['disk full', '53100'],
    ['shutting down', '57P01'],
    ['serialization failure', '40001'],
  ])('%s is an outage (503), not poison', async (_name, code) => {
    db.refuse = () => sqlError(code);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => writer.submit(rec())));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof DependencyUnavailableError)).toBe(true);
    expect(letters).toEqual([]);
  });

  it('a systemic error (missing table) rejects the batch with it, blaming no record', async () => {
    const error = sqlError('42P01', 'relation "x" does not exist');
    db.refuse = () => error;
    const results = await Promise.allSettled(Array.from({ length: 9 }, () => writer.submit(rec())));
    expect(results.map((r) => (r as PromiseRejectedResult).reason)).toEqual(Array(9).fill(error));
    expect(db.attempts.map((b) => b.length)).toEqual([9]);
    expect(letters).toEqual([]);
  });

  it('one record the database refuses is set aside and fails alone, in O(log n) extra transactions; every other org commits', async () => {
    const records = Array.from({ length: 500 }, (_, i) => rec(i % 2 ? 'org_b' : 'org_a'));
    const bad = records[321]!;
    db.refuse = (ids) => (ids.includes(bad.id) ? sqlError('22P02', 'invalid input syntax for type json') : null);
    const results = await Promise.allSettled(records.map((r) => writer.submit(r)));
    const rejected = results.flatMap((r, i) => (r.status === 'rejected' ? [[records[i]!.id, r.reason]] : []));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]![0]).toBe(bad.id);
    expect(rejected[0]![1]).toBeInstanceOf(RecordRefusedError);
    expect(db.committed.flat().sort()).toEqual(records.map((r) => r.id).filter((id) => id !== bad.id));
    expect(db.attempts.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(500)));
    expect(letters).toEqual([{ kind: 'thing', recordId: bad.id, orgId: bad.orgId, reason: 'invalid input syntax for type json', payload: bad }]);
  });

  it('several refused records, in both halves, are each found and set aside', async () => {
    const records = Array.from({ length: 16 }, () => rec());
    const bad = new Set([records[1]!.id, records[6]!.id, records[12]!.id]);
    db.refuse = (ids) => (ids.some((id) => bad.has(id)) ? sqlError('23502', 'null value') : null);
    const results = await Promise.allSettled(records.map((r) => writer.submit(r)));
    expect(results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []))).toEqual([1, 6, 12]);
    expect(letters.map((l) => l.recordId)).toEqual([records[1]!.id, records[6]!.id, records[12]!.id]);
  });

  it('an outage during the split rejects the rest with 503 and sets nothing more aside', async () => {
    const records = Array.from({ length: 8 }, () => rec());
    let calls = 0;
    db.refuse = () => (++calls === 1 ? sqlError('22P02') : sqlError('ECONNRESET', 'socket hang up'));
    const results = await Promise.allSettled(records.map((r) => writer.submit(r)));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof DependencyUnavailableError)).toBe(true);
    expect(letters).toEqual([]);
  });

  it('drain waits for queued and in-flight batches, also those submitted while it waits; backlog reports them', async () => {
    await writer.drain();
    expect(writer.backlog()).toEqual({ pending: 0, oldestMs: 0 });
    db.hold();
    let settled = 0;
    for (let i = 0; i < 10; i++) void writer.submit(rec()).then(() => settled++);
    const drained = writer.drain();
    await turn();
    for (let i = 0; i < 5; i++) void writer.submit(rec()).then(() => settled++);
    expect(writer.backlog().pending).toBe(5);
    expect(writer.backlog(Date.now() + 1000).oldestMs).toBeGreaterThanOrEqual(1000);
    let done = false;
    void drained.then(() => (done = true));
    await turn();
    expect(done).toBe(false);
    db.release();
    await drained;
    expect(settled).toBe(15);
    expect(db.committed.map((b) => b.length)).toEqual([10, 5]);
    expect(writer.backlog()).toEqual({ pending: 0, oldestMs: 0 });
  });
});
