import { FixedClock, type Caller } from '@igw/kernel';
import type { DecisionCall, DecisionListQuery, DecisionRecord } from '../../domain';
import type { DecisionCalls } from '../ports/decision-calls.port';
import type { DecisionRepository } from '../ports/decision.repository.port';
import { ListDecisionsUseCase } from './list-decisions.use-case';
import { PurgeExpiredDecisionCallsUseCase } from './purge-expired-decision-calls.use-case';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const CALLER: Caller = { orgId: 'org_1', keyId: 'key_1', scope: 'read_only' };
const KEPT: DecisionCall = { action: { surface: 'sdk', operation: 'crm.read', arguments: { id: 1 } }, context: { ticket: 'T-1' } };

const decision = (id: string): DecisionRecord =>
  ({ decisionId: id, orgId: 'org_1', decision: { kind: 'allow', decision_id: id }, createdAt: new Date(NOW.getTime() - 1000) }) as DecisionRecord;

class FakeCalls implements DecisionCalls {
  page = async () => [];
  asked: [string, readonly string[], Date][] = [];
  cutoffs: Date[] = [];
  async callsOf(orgId: string, ids: readonly string[], since: Date): Promise<Map<string, DecisionCall>> {
    this.asked.push([orgId, ids, since]);
    return new Map(ids.filter((id) => id === 'dec_kept').map((id) => [id, KEPT]));
  }
  async purgeBefore(cutoff: Date): Promise<number> {
    this.cutoffs.push(cutoff);
    return 3;
  }
}

describe('the mandate path’s kept calls (DESIGN 6.16)', () => {
  const repo = { listDecisions: async (_org: string, _q: DecisionListQuery) => [decision('dec_kept'), decision('dec_gone')] } as unknown as DecisionRepository;

  it('include=call reads the page’s calls in the caller’s org from the window start on; a decision without one shows null', async () => {
    const calls = new FakeCalls();
    const list = new ListDecisionsUseCase(repo, calls, { days: 7, maxBytes: 1024 }, new FixedClock(NOW));
    const page = await list.execute(CALLER, { include: 'call' });
    expect(page.data.map((d) => [d.decision_id, d.call])).toEqual([
      ['dec_kept', KEPT],
      ['dec_gone', null],
    ]);
    expect(calls.asked).toEqual([['org_1', ['dec_kept', 'dec_gone'], new Date('2026-11-20T12:00:00.000Z')]]);
  });

  it('without include no call is read or shown; retention 0 shows none of what is still stored', async () => {
    const calls = new FakeCalls();
    const page = await new ListDecisionsUseCase(repo, calls, { days: 7, maxBytes: 1024 }, new FixedClock(NOW)).execute(CALLER, {});
    expect(page.data.every((d) => !('call' in d))).toBe(true);
    expect(calls.asked).toEqual([]);
    await new ListDecisionsUseCase(repo, calls, { days: 0, maxBytes: 1024 }, new FixedClock(NOW)).execute(CALLER, { include: 'call' });
    expect(calls.asked[0]![2]).toEqual(NOW);
  });

  it('the purge deletes every call recorded before the window', async () => {
    const calls = new FakeCalls();
    expect(await new PurgeExpiredDecisionCallsUseCase(calls, { days: 7 }, new FixedClock(NOW)).execute()).toBe(3);
    expect(calls.cutoffs).toEqual([new Date('2026-11-20T12:00:00.000Z')]);
  });
});
