import { expectRealisticIntentions, hashedSplit } from './eval-set-checks';
import set from './intent-eval-set.json';

/** The labelled set behind `npm run eval:intents` stays well-formed and keeps its proportions. */
describe('intent eval set', () => {
  const active = new Map(set.intentions.filter((i) => i.status === 'active').map((i) => [i.label, i]));

  it('has realistic operator intentions with valid labels and classes', () => {
    expectRealisticIntentions(set.intentions);
  });

  it('has at least 100 labelled calls, about 15-20% ambient and ~30% held out', () => {
    const n = set.cases.length;
    expect(n).toBeGreaterThanOrEqual(100);
    expect(new Set(set.cases.map((c) => c.id)).size).toBe(n);
    const ambient = set.cases.filter((c) => c.expected_label === 'ambient').length / n;
    expect(ambient).toBeGreaterThanOrEqual(0.15);
    expect(ambient).toBeLessThanOrEqual(0.2);
    const test = set.cases.filter((c) => c.split === 'test').length / n;
    expect(test).toBeGreaterThan(0.25);
    expect(test).toBeLessThan(0.35);
  });

  it('puts every case in the split its id hashes to (FNV-1a of "intent-eval:<id>", % 10 < 3 is test)', () => {
    const misfiled = set.cases.filter((c) => c.split !== hashedSplit(c.id)).map((c) => c.id);
    expect(misfiled).toEqual([]);
  });

  it('labels every call with an active intention (and its class) or ambient/other', () => {
    for (const c of set.cases) {
      expect(['dev', 'test']).toContain(c.split);
      expect(c.tool_call.name.length).toBeGreaterThan(0);
      if (c.expected_label === 'ambient') expect(c.expected_class).toBe('other');
      else expect({ id: c.id, class: active.get(c.expected_label)?.intent_class }).toEqual({ id: c.id, class: c.expected_class });
    }
  });

  it('covers every active intention with at least two calls', () => {
    for (const label of active.keys())
      expect({ label, calls: set.cases.filter((c) => c.expected_label === label).length >= 2 }).toEqual({ label, calls: true });
  });
});
