// The cascade's options (DESIGN 6.4, 6.15): one object, each stage reads the part it needs.

/**
 * Embedding confidence calibration (cosine similarities of unit vectors).
 *
 *   P(covered)        = logistic(slope × (s1 − floor))          s1 = best similarity
 *   P(right | covered) = ½ + ½ × min(1, (s1 − s2) / clearMargin)  s2 = runner-up (0 if none)
 *
 * A match (s1 ≥ floor) is reported with P(covered) × P(right | covered); an ambient decision
 * (s1 < floor) with 1 − P(covered). So the floor is where covered and not covered are even, a
 * near tie between two intentions halves the confidence, and the decision is continuous at the
 * floor. Defaults were set by hand for OpenAI `text-embedding-3-*`-like models on short texts
 * (unrelated texts ≈ 0.1–0.25, same purpose ≈ 0.45+); they were not fitted on the labelled set
 * and other models need their own `floor`.
 */
export interface EmbeddingCalibration {
  floor: number;
  slope: number;
  clearMargin: number;
}

export const DEFAULT_EMBEDDING_CALIBRATION: EmbeddingCalibration = { floor: 0.3, slope: 30, clearMargin: 0.06 };

export const CLASSIFICATION_CASCADE_OPTIONS = Symbol('CLASSIFICATION_CASCADE_OPTIONS');

/**
 * The deployment's bar for a certain match by confidence (DESIGN 6.15; decision 0018): the
 * lowest confidence at which the lexical layer's matches on the labelled dev sets were ≥ 99%
 * right. Below it a match goes to a human. One number per deployment (CLASSIFICATION_CERTAIN_AT).
 */
export const DEFAULT_CERTAIN_AT = 0.995;

export interface ClassificationCascadeOptions {
  /** A ranking layer's match at or above this confidence is certain (allowed without a human). */
  certainAt: number;
  /** Bound for one embeddings call (the call's text plus uncached intentions, one batch), ms. */
  embeddingTimeoutMs: number;
  /** Candidates of the embedding layer in a large org: the lexical index's top N. */
  embeddingCandidates: number;
  /** Orgs with at most this many active intentions compare the call with every one of them. */
  embeddingAllUpTo: number;
  embeddingCalibration: EmbeddingCalibration;
  /** At or above this confidence an embedding "no intention" stands without the llm. */
  embeddingConfidentAt: number;
  /** Intention vectors kept, all orgs together (LRU). */
  embeddingCacheSize: number;
  /** Call-text vectors kept (LRU): an agent repeating a call does not pay for it twice. */
  queryCacheSize: number;
  /** Recent chat messages in the embedding layer's call text. */
  embeddingContextMessages: number;
  /** Bound for one chat completion, ms. */
  llmTimeoutMs: number;
  /** Candidates offered to the llm (all of them when the org has no more than this). */
  llmCandidates: number;
  /** Recent chat messages shown to the llm. */
  llmContextMessages: number;
  /** Candidates reported in `supporting_evidence` by the embedding layer. */
  evidenceCandidates: number;
}

export const DEFAULT_CASCADE_OPTIONS: ClassificationCascadeOptions = {
  certainAt: DEFAULT_CERTAIN_AT,
  embeddingTimeoutMs: 2000,
  embeddingCandidates: 20,
  embeddingAllUpTo: 200,
  embeddingCalibration: DEFAULT_EMBEDDING_CALIBRATION,
  embeddingConfidentAt: 0.7,
  embeddingCacheSize: 4096,
  queryCacheSize: 1024,
  embeddingContextMessages: 3,
  llmTimeoutMs: 3000,
  llmCandidates: 8,
  llmContextMessages: 5,
  evidenceCandidates: 3,
};

export type ClassificationCascadeOverrides = Partial<Omit<ClassificationCascadeOptions, 'embeddingCalibration'>> & {
  embeddingCalibration?: Partial<EmbeddingCalibration>;
};
