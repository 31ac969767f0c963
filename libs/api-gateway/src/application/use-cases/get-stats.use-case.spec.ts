import type { StatsPartApi, StatsPartDto } from '@igw/contracts';
import { AppError } from '@igw/kernel';
import { composeStats, GetStatsUseCase } from './get-stats.use-case';

const AT = new Date('2026-03-08T10:07:30.000Z');
const CALLER = { orgId: 'org_1', keyId: 'key_1', scope: 'read_only' as const };

describe('composeStats', () => {
  it('with no part: an empty overview with its buckets', () => {
    const stats = composeStats('24h', AT, []);
    expect(stats).toMatchObject({
      window: '24h',
      bucket_seconds: 900,
      generated_at: AT.toISOString(),
      evaluations: { total: 0, by_outcome: {}, series: {} },
      decisions: { total: 0, by_kind: {}, series: {} },
      approvals: { pending: 0, oldest_pending_age_seconds: null },
      auto_decided: { share: null, automatic: 0, human: 0 },
      top_refused_tools: [],
      intentions: [],
      cards: [],
    });
    expect(stats.buckets).toHaveLength(96);
  });

  it('merges the parts: auto-decided share from outcomes, refused tools summed across both paths', () => {
    const parts: StatsPartDto[] = [
      {
        evaluations: { total: 10, by_outcome: { allowed: 5, denied: 2, shadow_denied: 1, pending_approval: 1, approved: 1 }, series: {} },
        refused_tools: [
          { tool: 'crm.delete', count: 2 },
          { tool: 'fs.write', count: 1 },
        ],
        intentions: [{ intent_label: 'crm.lookup', count: 7 }],
      },
      {
        decisions: { total: 4, by_kind: { deny: 3, allow: 1 }, series: {} },
        refused_tools: [{ tool: 'fs.write', count: 3 }],
        cards: [{ card_id: 'c1', count: 4 }],
      },
      { approvals: { pending: 2, oldest_pending_age_seconds: 90 } },
    ];
    const stats = composeStats('1h', AT, parts);
    expect(stats.auto_decided).toEqual({ share: 0.8, automatic: 8, human: 2 });
    expect(stats.top_refused_tools).toEqual([
      { tool: 'fs.write', count: 4 },
      { tool: 'crm.delete', count: 2 },
    ]);
    expect(stats.intentions).toEqual([{ intent_label: 'crm.lookup', count: 7 }]);
    expect(stats.cards).toEqual([{ card_id: 'c1', count: 4 }]);
    expect(stats.approvals).toEqual({ pending: 2, oldest_pending_age_seconds: 90 });
    expect(stats.decisions.total).toBe(4);
  });
});

describe('GetStatsUseCase', () => {
  it('asks every part for the caller’s org at one clock reading, and refuses a bad window before asking', async () => {
    const asked: unknown[] = [];
    const part: StatsPartApi = { read: async (orgId, window, at) => (asked.push([orgId, window, at]), {}) };
    const useCase = new GetStatsUseCase([part, part], { now: () => AT });
    await useCase.execute(CALLER, { window: '7d' });
    expect(asked).toEqual([
      ['org_1', '7d', AT],
      ['org_1', '7d', AT],
    ]);
    await expect(useCase.execute(CALLER, { window: 'week' })).rejects.toBeInstanceOf(AppError);
    expect(asked).toHaveLength(2);
  });
});
