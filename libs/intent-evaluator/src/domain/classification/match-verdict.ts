import type { IntentClass } from '@igw/kernel';
import type { ClassificationDecision } from './lexical-classifier';

/** Where a classification came from: a binding, an example, or a layer's calibrated confidence. */
export type MatchLayer = 'binding' | 'example' | 'lexical' | 'embedding' | 'llm';

/** An intention a stage offers, with its confidence (0..1). */
export interface MatchCandidate {
  intentionId: string;
  label: string;
  intentClass: IntentClass;
  confidence: number;
}

/** What the last stage that spoke concluded. */
export interface StageConclusion {
  layer: MatchLayer;
  decision: ClassificationDecision;
  confidence: number;
  /** The stage is sure of `decision` by its own rule (a binding, an example, confidence at the bar). */
  certain: boolean;
  /** The intentions the stage would consider, best first (the decision's first when it is one). */
  candidates: readonly MatchCandidate[];
}

/**
 * The one rule that turns a classification into what the gateway may do with it (DESIGN 6.15):
 * - `certain`: a certain match; the intention's own rules decide (allowed, or its approval);
 * - `uncertain`: a match nobody is sure of; a human decides between the candidates (never an
 *   allow on a guess);
 * - `ambient`: no intention covers the call; denied.
 */
export type MatchVerdict =
  | { kind: 'certain'; intentionId: string; candidates: readonly MatchCandidate[] }
  | { kind: 'uncertain'; intentionId: string; candidates: readonly MatchCandidate[] }
  | { kind: 'ambient'; candidates: readonly [] };

/** How many candidates an uncertain match carries to the approval. */
export const MAX_CANDIDATES = 3;
/** Other candidates below this confidence are not worth a human's attention. */
export const MIN_CANDIDATE_CONFIDENCE = 0.01;

export function verdictOf(conclusion: StageConclusion): MatchVerdict {
  const { decision } = conclusion;
  if (decision.kind === 'ambient') return { kind: 'ambient', candidates: [] };
  const first = conclusion.candidates.find((c) => c.intentionId === decision.intentionId) ?? {
    intentionId: decision.intentionId,
    label: decision.label,
    intentClass: decision.intentClass,
    confidence: conclusion.confidence,
  };
  const others = conclusion.candidates.filter((c) => c.intentionId !== decision.intentionId && c.confidence >= MIN_CANDIDATE_CONFIDENCE);
  const candidates = [first, ...others].slice(0, MAX_CANDIDATES);
  return { kind: conclusion.certain ? 'certain' : 'uncertain', intentionId: decision.intentionId, candidates };
}
