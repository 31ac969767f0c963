import { AMBIENT_FEATURES, CANDIDATE_FEATURES, type RankerWeights } from '../../libs/intent-evaluator/src/domain/classification';
import { fitRanker, rankerLoss, type RankerSample } from './fit-ranker';

const zero = (): RankerWeights => ({ candidate: CANDIDATE_FEATURES.map(() => 0), ambient: AMBIENT_FEATURES.map(() => 0) });

/** Calls with two candidates where feature 0 marks the right one, and ambient calls where ambient feature 1 is set. */
function samples(n: number): RankerSample[] {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => {
    const ambient = i % 4 === 0;
    const right = rnd() < 0.5 ? 0 : 1;
    const candidates = [0, 1].map((k) => ({
      hit: { doc: { id: `d${k}` } } as never,
      permitted: true,
      x: CANDIDATE_FEATURES.map((_, f) => (f === 0 ? (!ambient && k === right ? 0.8 : 0.2) + 0.1 * rnd() : rnd() * 0.1)),
    }));
    return { features: { candidates, ambient: AMBIENT_FEATURES.map((_, f) => (f === 0 ? 1 : f === 1 && ambient ? 1 : 0)) }, target: ambient ? -1 : right };
  });
}

describe('fitRanker', () => {
  it('has the gradient of its loss (finite differences)', () => {
    const s = samples(40);
    const w: RankerWeights = { candidate: CANDIDATE_FEATURES.map((_, k) => 0.1 * k - 0.3), ambient: AMBIENT_FEATURES.map((_, k) => 0.2 - 0.1 * k) };
    const { grad } = rankerLoss(s, w, 0.01);
    const h = 1e-6;
    for (const k of [0, 3, CANDIDATE_FEATURES.length - 1]) {
      const up = { ...w, candidate: w.candidate.map((v, i) => (i === k ? v + h : v)) };
      const down = { ...w, candidate: w.candidate.map((v, i) => (i === k ? v - h : v)) };
      expect(grad.candidate[k]).toBeCloseTo((rankerLoss(s, up, 0.01).loss - rankerLoss(s, down, 0.01).loss) / (2 * h), 5);
    }
    const up = { ...w, ambient: w.ambient.map((v, i) => (i === 1 ? v + h : v)) };
    const down = { ...w, ambient: w.ambient.map((v, i) => (i === 1 ? v - h : v)) };
    expect(grad.ambient[1]).toBeCloseTo((rankerLoss(s, up, 0.01).loss - rankerLoss(s, down, 0.01).loss) / (2 * h), 5);
  });

  it('learns which feature marks the right candidate and which marks an ambient call', () => {
    const s = samples(200);
    const start = zero();
    const { weights, loss } = fitRanker(s, start, { ridge: 0.001, steps: 1500 });
    expect(loss).toBeLessThan(rankerLoss(s, start, 0.001).loss / 2);
    expect(weights.candidate[0]).toBeGreaterThan(1);
    expect(weights.ambient[1]).toBeGreaterThan(1);
  });
});
