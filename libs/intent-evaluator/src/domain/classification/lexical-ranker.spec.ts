import { AMBIENT_FEATURES, CANDIDATE_FEATURES, type CallFeatures } from './candidate-features';
import { checkWeights, RANKER_WEIGHTS, rankerProbabilities } from './lexical-ranker';

const x = (values: Partial<Record<(typeof CANDIDATE_FEATURES)[number], number>>) => CANDIDATE_FEATURES.map((k) => values[k] ?? 0);
const call = (...candidates: number[][]): CallFeatures => ({
  candidates: candidates.map((v, i) => ({ hit: { doc: { id: `i${i}` } } as never, permitted: true, x: v })),
  ambient: AMBIENT_FEATURES.map((k) => (k === 'bias' ? 1 : 0)),
});

describe('rankerProbabilities', () => {
  it('is a distribution over the candidates and the ambient alternative', () => {
    const p = rankerProbabilities(call(x({ relative: 0.8, name: 1, objectHit: 1 }), x({ relative: 0.3, gap: 0.6 })));
    expect(p.candidates.reduce((a, b) => a + b, 0) + p.ambient).toBeCloseTo(1, 12);
    expect(p.candidates[0]).toBeGreaterThan(p.candidates[1] ?? 1);
  });

  it('is all ambient without candidates', () => {
    expect(rankerProbabilities(call())).toEqual({ candidates: [], ambient: 1 });
  });

  it('moves probability the way the fitted weights say: toward what the call names, away from a wrong verb or an exclusion', () => {
    const base = { relative: 0.6, name: 0.6, objectHit: 1 };
    const p = (v: Partial<Record<(typeof CANDIDATE_FEATURES)[number], number>>) => rankerProbabilities(call(x(v))).candidates[0] ?? 0;
    expect(p({ ...base, relative: 0.8 })).toBeGreaterThan(p(base));
    expect(p({ ...base, actionMismatch: 1 })).toBeLessThan(p(base));
    expect(p({ ...base, excluded: 1 })).toBeLessThan(p(base));
    expect(p({ ...base, objectHit: 0, objectMiss: 1 })).toBeLessThan(p(base));
  });

  it('stays finite for extreme utilities', () => {
    const p = rankerProbabilities(call(x({ relative: 1e6 }), x({ gap: 1e6 })));
    expect(p.candidates.every(Number.isFinite)).toBe(true);
    expect(p.candidates[0]).toBeCloseTo(1, 12);
  });

  it('refuses weights that do not fit the features', () => {
    expect(() => checkWeights(RANKER_WEIGHTS)).not.toThrow();
    expect(() => checkWeights({ candidate: [1], ambient: RANKER_WEIGHTS.ambient })).toThrow(/candidate/);
  });
});
