import type { IntentClass } from '@igw/contracts';
import type { ClassificationDecision, LexicalClassification, MatchLayer, MatchVerdict } from '../../domain/classification';
import type { ModelEndpointFailure } from './model-endpoint.error';

/** The cascade's layers, in the order they run (DESIGN 6.4, 6.15). */
export type ClassificationLayer = MatchLayer;

/** A candidate as the lexical layer reports it (score, relative score, matched terms). */
export type LexicalSupportingEvidence = LexicalClassification['evidence']['supporting_evidence'][number];

/**
 * One candidate in `supporting_evidence`. Which numbers it carries says which layer ranked it:
 * `score` and `relative_score` (lexical classifier, BM25F), `score` alone (lexical index, offered
 * to the llm beyond the classifier's top candidates), `similarity` (embedding). An intention
 * offered to the llm that no layer ranked carries none.
 */
export interface CascadeSupportingEvidence {
  intent_label: string;
  intention_id: string;
  intent_class: IntentClass;
  /** Query terms the lexical layer matched in this intention ([] when it did not rank it). */
  matched_terms: string[];
  /** Lexical BM25F score. */
  score?: number;
  /** Lexical score as a share of the most the query could score (0..1). */
  relative_score?: number;
  /** The lexical ranker's probability of this intention (0..1). */
  probability?: number;
  /** Cosine similarity between the call's and the intention's embeddings (-1..1, 4 decimals). */
  similarity?: number;
}

/**
 * Why a consulted layer gave no decision: an endpoint failure (see ModelEndpointError), an llm
 * answer that is not one of the offered labels or not the required JSON (`invalid_answer`), or
 * anything unexpected (`error`).
 */
export type LayerErrorReason = ModelEndpointFailure | 'invalid_answer' | 'error';

export interface LayerError {
  layer: 'embedding' | 'llm';
  reason: LayerErrorReason;
  /** HTTP status of the endpoint's answer, for `http_error`. */
  status?: number;
}

/**
 * The evaluate response's `classification_evidence` (spec: schema_version 1). When the lexical
 * layer decides alone it is exactly the lexical layer's evidence; the domain's
 * `ClassificationEvidence` is assignable to it.
 */
export interface CascadeEvidence {
  /** The layer whose decision stands. */
  classification_method: ClassificationLayer;
  /** Every layer that ran, in order, including one that failed (see layer_errors). */
  evaluation_layers_consulted: ClassificationLayer[];
  confidence: number;
  /**
   * Whether the decision is certain (DESIGN 6.15): a binding, an example, or a confidence at the
   * deployment's bar. Only a certain match is allowed without a human.
   */
  certain: boolean;
  /** With `binding`: the pattern that matched (an intention's label for a name binding). */
  matched_binding?: string;
  /** With `example`: the ids of the examples the call is like. */
  matched_examples?: string[];
  /**
   * Top candidates of the last layer that ranked them (lexical or embedding); when the llm
   * decided, its choice (if an intention) comes first.
   */
  supporting_evidence: CascadeSupportingEvidence[];
  /** Consulted layers that gave no usable answer; absent when none failed. */
  layer_errors?: LayerError[];
  /** The llm's one-line reason (model output, truncated); only when the llm decided. */
  llm_reason?: string;
  schema_version: 1;
}

export interface CascadeResult {
  /** What the gateway may do with the match: certain, uncertain (a human decides) or ambient. */
  verdict: MatchVerdict;
  decision: ClassificationDecision;
  /** Confidence in `decision`, 0..1 (equal to `evidence.confidence`). */
  confidence: number;
  evidence: CascadeEvidence;
}
