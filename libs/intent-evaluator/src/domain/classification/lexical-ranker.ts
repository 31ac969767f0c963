import { AMBIENT_FEATURES, CANDIDATE_FEATURES, type CallFeatures } from './candidate-features';

/**
 * A conditional-logit ranker over a call's candidate intentions plus one more alternative, "no
 * intention covers this call" (ambient): each candidate's utility is `candidate · x` over its
 * CANDIDATE_FEATURES, the ambient alternative's is `ambient · a` over the call's
 * AMBIENT_FEATURES, and the probabilities are their softmax. One model both ranks the
 * candidates and decides ambient, and its probabilities are the confidence (fitted by maximum
 * likelihood, so they track observed accuracy; the eval prints the reliability table).
 */
export interface RankerWeights {
  candidate: readonly number[];
  ambient: readonly number[];
}

/**
 * Fitted on the dev split of the labelled sets (libs/intent-evaluator/eval) by
 * `npm run eval:intents -- --fit-ranker` (L2-regularised maximum likelihood); the test split is
 * never used to fit. Named for the features they weigh, in their order.
 */
export const RANKER_WEIGHTS: RankerWeights = {
  candidate: [4.905, -0.485, 1.473, 2.49, 2.749, 3.896, -2.735, -1.279, 0.576, -0.64, -0.825, -1.444, -5.902, 1.139],
  ambient: [0.935, 2.048, -0.064, 0.995],
};

export function checkWeights(w: RankerWeights): void {
  if (w.candidate.length !== CANDIDATE_FEATURES.length || w.ambient.length !== AMBIENT_FEATURES.length)
    throw new Error(`ranker weights: expected ${CANDIDATE_FEATURES.length} candidate and ${AMBIENT_FEATURES.length} ambient weights`);
}

const dot = (w: readonly number[], x: readonly number[]) => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (w[i] ?? 0) * (x[i] ?? 0);
  return s;
};

/** Softmax probabilities: one per candidate (in the given order), and the ambient one. */
export function rankerProbabilities(f: CallFeatures, w: RankerWeights = RANKER_WEIGHTS): { candidates: number[]; ambient: number } {
  const u = f.candidates.map((c) => dot(w.candidate, c.x));
  const ua = dot(w.ambient, f.ambient);
  let max = ua;
  for (const v of u) if (v > max) max = v;
  const e = u.map((v) => Math.exp(v - max));
  const ea = Math.exp(ua - max);
  let z = ea;
  for (const v of e) z += v;
  return { candidates: e.map((v) => v / z), ambient: ea / z };
}
