import { RecordRefusedError } from '@igw/kernel';
import { uniqueOrgId as newOrg } from '@igw/persistence/testing';
import type { DecisionCall } from '../../domain';
import { SqlDecisionCalls } from './sql-decision-calls';
import { record, decisionRepositoryUnderTest } from './sql-decision.repository.fixture';

const DAY = 86_400_000;
const EPOCH = new Date(0);
const call = (n: number, context?: Record<string, unknown>): DecisionCall => ({
  action: { surface: 'sdk', operation: 'crm.contacts.read', target_resource: `crm://contacts/${n}`, arguments: { id: n, q: 'ada' } },
  ...(context ? { context } : {}),
});

// The mandate path's kept calls (DESIGN 6.16): written in the decision's own statement, read by
// org and id within the window, purged by age in batches.
describe('SqlDecisionCalls (PostgreSQL)', () => {
  const t = decisionRepositoryUnderTest();
  let calls: SqlDecisionCalls;
  beforeAll(() => {
    calls = new SqlDecisionCalls(t.db, 2);
  });
  const keptIds = async () => (await t.db.query<{ id: string }>(`SELECT id FROM "${t.schema}"."decision_calls" ORDER BY id`)).map((r) => r.id);

  it('keeps the call of each new decision in the commit that stores it, as decided; a decision without one keeps none', async () => {
    const org = newOrg('calls');
    const withContext = record(org, { call: call(1, { ticket: 'T-1', on_behalf_of: 'user:ada' }) });
    const bare = record(org, { call: call(2) });
    const none = record(org, { call: null });
    await t.saveAll([withContext, bare, none]);
    const ids = [withContext, bare, none].map((r) => r.decisionId);
    const found = await calls.callsOf(org, ids, EPOCH);
    expect(Object.fromEntries(found)).toEqual({ [withContext.decisionId]: withContext.call, [bare.decisionId]: bare.call });

    // Stored again (a retry): one row per decision still, and the first call stays.
    await t.saveAll([{ ...bare, call: call(99) }]);
    expect((await calls.callsOf(org, ids, EPOCH)).get(bare.decisionId)).toEqual(bare.call);
    expect((await keptIds()).filter((id) => ids.includes(id))).toHaveLength(2);
  });

  it('a decision the store refuses leaves no call; the calls of the rest of its commit are kept', async () => {
    const org = newOrg('calls_poison');
    const poison = record(org, { operation: 'crm.read\ud800', call: call(3) });
    const others = Array.from({ length: 6 }, (_, i) => record(org, { call: call(10 + i) }));
    const outcomes = await Promise.allSettled([...others.slice(0, 3), poison, ...others.slice(3)].map((r) => t.repo.record(r)));
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual([expect.any(RecordRefusedError)]);
    const found = await calls.callsOf(
      org,
      [poison, ...others].map((r) => r.decisionId),
      EPOCH,
    );
    expect([...found.keys()].sort()).toEqual(others.map((r) => r.decisionId).sort());
    expect(await keptIds()).not.toContain(poison.decisionId);
    // Its dead letter, kept for ever, keeps the decision without the call.
    const [letter] = await t.db.query<{ payload: string }>(`SELECT payload FROM "${t.schema}"."dead_letters" WHERE record_id = $1`, [poison.decisionId]);
    expect(JSON.parse(letter!.payload)).toMatchObject({ decisionId: poison.decisionId });
    expect(JSON.parse(letter!.payload)).not.toHaveProperty('call');
  });

  it('reads only the caller org, and only calls recorded at or after the window start', async () => {
    const org = newOrg('calls_scope');
    const other = newOrg('calls_other');
    const old = record(org, { createdAt: new Date(Date.now() - 9 * DAY), call: call(4) });
    const fresh = record(org, { createdAt: new Date(), call: call(5) });
    const theirs = record(other, { createdAt: new Date(), call: call(6) });
    await t.saveAll([old, fresh, theirs]);
    const ids = [old, fresh, theirs].map((r) => r.decisionId);
    const window = new Date(Date.now() - 7 * DAY);
    expect([...(await calls.callsOf(org, ids, window)).keys()]).toEqual([fresh.decisionId]);
    expect([...(await calls.callsOf(org, ids, EPOCH)).keys()].sort()).toEqual([old.decisionId, fresh.decisionId].sort());
    expect([...(await calls.callsOf(other, [old.decisionId, fresh.decisionId], EPOCH)).keys()]).toEqual([]);
    expect(await calls.callsOf(org, [], EPOCH)).toEqual(new Map());
  });

  it('pages an org window oldest first with its decision fields (what-if replay), never another org, never a decision without a call', async () => {
    const org = newOrg('calls_page');
    const other = newOrg('calls_page_other');
    const at = (m: number) => new Date(Date.UTC(2003, 0, 1, 0, m));
    const mine = [3, 1, 2, 4].map((m) =>
      record(org, {
        createdAt: at(m),
        kind: m === 2 ? 'deny' : 'allow',
        call: call(40 + m, { actor: 'agent-1' }),
        approvalRequestId: m === 4 ? 'apr_1' : null,
      }),
    );
    await t.saveAll([...mine, record(org, { createdAt: at(2), call: null }), record(other, { createdAt: at(2), call: call(50) })]);
    const window = { since: at(1), until: at(4), limit: 10 };

    const all = await calls.page(org, { ...window, after: null });
    expect(all.map((k) => k.createdAt.toISOString())).toEqual([at(1), at(2), at(3)].map((d) => d.toISOString()));
    const second = mine.find((r) => r.createdAt.getTime() === at(2).getTime())!;
    expect(all[1]).toEqual({
      id: second.decisionId,
      createdAt: at(2),
      kind: 'deny',
      intentId: second.intentId,
      promptId: second.promptId,
      actor: second.actor,
      audience: second.audience,
      credId: second.credId,
      approvalRequestId: null,
      call: second.call,
    });
    // Keyset: after the first, two at most.
    expect((await calls.page(org, { ...window, after: all[0]!, limit: 2 })).map((k) => k.id)).toEqual([all[1]!.id, all[2]!.id]);
    expect((await calls.page(org, { ...window, until: at(5), after: all[2]!, limit: 5 }))[0]).toMatchObject({ approvalRequestId: 'apr_1' });
    expect(await calls.page(other, { ...window, since: at(3), after: null })).toEqual([]);
  });

  it('purges the calls older than the cutoff of every org in batches, and keeps the decisions and the rest', async () => {
    const orgA = newOrg('purge_a');
    const orgB = newOrg('purge_b');
    const cutoff = new Date('2001-01-08T00:00:00.000Z');
    const before = (n: number) => new Date(cutoff.getTime() - n * 60_000);
    // Older than every other spec's rows: only these are before the cutoff.
    const doomed = [
      record(orgA, { createdAt: before(1) }),
      record(orgB, { createdAt: before(2) }),
      record(orgA, { createdAt: before(3) }),
      record(orgB, { createdAt: before(4) }),
      record(orgA, { createdAt: before(5) }),
    ].map((r, i) => ({ ...r, call: call(20 + i) }));
    const kept = [record(orgA, { createdAt: cutoff, call: call(30) }), record(orgB, { createdAt: new Date(cutoff.getTime() + DAY), call: call(31) })];
    await t.saveAll([...doomed, ...kept]);
    // Five rows in batches of two: three statements, all of them deleted.
    expect(await calls.purgeBefore(cutoff)).toBe(5);
    expect(await calls.purgeBefore(cutoff)).toBe(0);
    const left = await keptIds();
    for (const r of doomed) expect(left).not.toContain(r.decisionId);
    for (const r of kept) expect(left).toContain(r.decisionId);
    expect(await t.rows(orgA)).toEqual(t.sorted([...doomed, ...kept].filter((r) => r.orgId === orgA).map((r) => r.decisionId)));
  });
});
