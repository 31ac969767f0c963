import { expectRealisticIntentions, hashedSplit } from './eval-set-checks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Set {
  org: string;
  intentions: { id: string; label: string; intent_class: string; status: string; description: string; data_elements: unknown[] }[];
  cases: { id: string; split: string; tool_call: { name: string }; expected_label: string; expected_class: string; difficulty: string; hard_kind?: string }[];
}

const dir = join(__dirname, 'sets');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const sets = files.map((f) => ({ file: f, set: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Set }));
const HARD_KINDS = ['paraphrase', 'no_shared_word', 'arguments_carry_meaning', 'near_miss'];

/** The organisations' sets behind `npm run eval:intents` (issue 15) stay well-formed and hard enough. */
describe.each(sets)('eval set $file', ({ set }) => {
  const active = new Map(set.intentions.filter((i) => i.status === 'active').map((i) => [i.label, i]));

  it('has an organisation of realistic intentions with valid labels and classes', () => {
    expect(set.org).toMatch(/^[a-z0-9-]+$/);
    expectRealisticIntentions(set.intentions);
  });

  it('has hundreds of graded calls: ~20% ambient, ≥35% hard, ~30% held out by the hash rule', () => {
    const n = set.cases.length;
    expect(n).toBeGreaterThanOrEqual(200);
    const share = (p: (c: Set['cases'][number]) => boolean) => set.cases.filter(p).length / n;
    expect(share((c) => c.expected_label === 'ambient')).toBeGreaterThanOrEqual(0.15);
    expect(share((c) => c.expected_label === 'ambient')).toBeLessThanOrEqual(0.25);
    expect(share((c) => c.difficulty === 'hard')).toBeGreaterThanOrEqual(0.35);
    expect(share((c) => c.split === 'test')).toBeGreaterThan(0.2);
    expect(share((c) => c.split === 'test')).toBeLessThan(0.4);
    const misfiled = set.cases.filter((c) => c.split !== hashedSplit(c.id)).map((c) => c.id);
    expect(misfiled).toEqual([]);
  });

  it('labels every call with an active intention (and its class) or ambient/other, and grades it', () => {
    for (const c of set.cases) {
      expect(c.tool_call.name.length).toBeGreaterThan(0);
      expect(['easy', 'hard']).toContain(c.difficulty);
      if (c.difficulty === 'hard') expect({ id: c.id, kind: HARD_KINDS.includes(c.hard_kind ?? '') }).toEqual({ id: c.id, kind: true });
      if (c.expected_label === 'ambient') expect(c.expected_class).toBe('other');
      else expect({ id: c.id, class: active.get(c.expected_label)?.intent_class }).toEqual({ id: c.id, class: c.expected_class });
    }
  });

  it('covers every active intention with at least three calls', () => {
    for (const label of active.keys())
      expect({ label, calls: set.cases.filter((c) => c.expected_label === label).length >= 3 }).toEqual({ label, calls: true });
  });
});

it('case ids are unique across all sets', () => {
  const ids = sets.flatMap(({ set }) => set.cases.map((c) => c.id));
  expect(new Set(ids).size).toBe(ids.length);
});
