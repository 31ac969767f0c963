// Fits the lexical ranker's weights (libs/intent-evaluator/src/domain/classification/lexical-ranker.ts)
// by L2-regularised maximum likelihood of the labelled choice among a call's candidates and the
// ambient alternative. Pure; eval-intents.ts feeds it the dev split (`--fit-ranker`).
import type { CallFeatures, RankerWeights } from '../../libs/intent-evaluator/src/domain/classification';
import { rankerProbabilities } from '../../libs/intent-evaluator/src/domain/classification';

export interface RankerSample {
  features: CallFeatures;
  /** Index of the right candidate, or -1 when the call is ambient. */
  target: number;
}

/**
 * Negative mean log-likelihood and its gradient. The ambient bias (ambient weight 0) is not
 * penalised; every other weight is, by `ridge` × w².
 */
export function rankerLoss(samples: readonly RankerSample[], w: RankerWeights, ridge: number): { loss: number; grad: RankerWeights } {
  const gc = w.candidate.map(() => 0);
  const ga = w.ambient.map(() => 0);
  let loss = 0;
  for (const s of samples) {
    const p = rankerProbabilities(s.features, w);
    const pt = s.target >= 0 ? (p.candidates[s.target] ?? 0) : p.ambient;
    loss -= Math.log(Math.max(pt, 1e-12));
    s.features.candidates.forEach((c, i) => {
      const d = (p.candidates[i] ?? 0) - (i === s.target ? 1 : 0);
      c.x.forEach((x, k) => (gc[k] = (gc[k] ?? 0) + d * x));
    });
    const da = p.ambient - (s.target < 0 ? 1 : 0);
    s.features.ambient.forEach((a, k) => (ga[k] = (ga[k] ?? 0) + da * a));
  }
  const n = Math.max(1, samples.length);
  loss /= n;
  const grad = {
    candidate: gc.map((g, k) => g / n + 2 * ridge * (w.candidate[k] ?? 0)),
    ambient: ga.map((g, k) => g / n + (k === 0 ? 0 : 2 * ridge * (w.ambient[k] ?? 0))),
  };
  loss += ridge * (w.candidate.reduce((t, v) => t + v * v, 0) + w.ambient.slice(1).reduce((t, v) => t + v * v, 0));
  return { loss, grad };
}

/** Adam on the full batch from `start`; the loss is convex, so the start only affects speed. */
export function fitRanker(
  samples: readonly RankerSample[],
  start: RankerWeights,
  options: { ridge?: number; steps?: number; rate?: number } = {},
): { weights: RankerWeights; loss: number } {
  const ridge = options.ridge ?? 0.01;
  const steps = options.steps ?? 3000;
  const rate = options.rate ?? 0.05;
  const flat = [...start.candidate, ...start.ambient];
  const nc = start.candidate.length;
  const m = flat.map(() => 0);
  const v = flat.map(() => 0);
  const unflat = (f: number[]): RankerWeights => ({ candidate: f.slice(0, nc), ambient: f.slice(nc) });
  let loss = Infinity;
  for (let t = 1; t <= steps; t++) {
    const r = rankerLoss(samples, unflat(flat), ridge);
    loss = r.loss;
    const g = [...r.grad.candidate, ...r.grad.ambient];
    for (let k = 0; k < flat.length; k++) {
      const gk = g[k] ?? 0;
      m[k] = 0.9 * (m[k] ?? 0) + 0.1 * gk;
      v[k] = 0.999 * (v[k] ?? 0) + 0.001 * gk * gk;
      const mh = (m[k] ?? 0) / (1 - 0.9 ** t);
      const vh = (v[k] ?? 0) / (1 - 0.999 ** t);
      flat[k] = (flat[k] ?? 0) - (rate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return { weights: unflat(flat.map((x) => Math.round(x * 1000) / 1000)), loss };
}
