import { run } from '../main';
import { fakeGateway } from '../testing/fake-gateway';

const STATS = {
  window: '24h',
  bucket_seconds: 900,
  buckets: Array.from({ length: 96 }, (_, i) => new Date(Date.UTC(2026, 2, 8) + i * 900_000).toISOString()),
  generated_at: '2026-03-09T00:00:00.000Z',
  evaluations: { total: 10, by_outcome: { allowed: 7, denied: 2, pending_approval: 1 }, series: {} },
  decisions: { total: 3, by_kind: { allow: 2, deny: 1 }, series: {} },
  approvals: { pending: 1, oldest_pending_age_seconds: 75 },
  auto_decided: { share: 0.9, automatic: 9, human: 1 },
  top_refused_tools: [{ tool: 'shell.exec', count: 2 }],
  intentions: [{ intent_label: 'crm.lookup', count: 8 }],
  cards: [{ card_id: 'crm-card', count: 3 }],
};

/** A gateway that answers GET /v1/stats; `asked` is what the CLI sent. */
function harness() {
  const h = fakeGateway(() => ({ status: 200, body: STATS }));
  return { ...h, list: () => h.sent.map((r) => `${r.method} ${r.path}`) };
}

describe('igw stats', () => {
  it('reads the window asked for and prints the figures and the ranked lists', async () => {
    const h = harness();
    expect(await run(['stats', '--window', '24h'], h.io)).toBe(0);
    expect(h.list()).toEqual(['GET /v1/stats?window=24h']);
    const text = h.out();
    expect(text).toMatch(/window\s+24h \(96 buckets of 900 s\)/);
    expect(text).toMatch(/evaluations\s+10 \(allowed 7, denied 2, pending_approval 1\)/);
    expect(text).toMatch(/auto_decided\s+90\.0 % \(9 by the gateway, 1 by a human\)/);
    expect(text).toMatch(/shell\.exec\s+2/);
    expect(text).toMatch(/crm-card\s+3/);
  });

  it('defaults to 1h, prints JSON with --json, and refuses another window before asking', async () => {
    const h = harness();
    expect(await run(['stats', '--json'], h.io)).toBe(0);
    expect(h.list()).toEqual(['GET /v1/stats?window=1h']);
    expect(JSON.parse(h.out())).toEqual(STATS);
    const bad = harness();
    expect(await run(['stats', '--window', '2h'], bad.io)).toBe(1);
    expect(bad.list()).toEqual([]);
    expect(bad.err()).toContain('must be one of 1h, 24h, 7d');
  });
});
