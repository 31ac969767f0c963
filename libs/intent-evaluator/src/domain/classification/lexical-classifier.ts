import type { IntentClass } from '@igw/kernel';
import { ACTION_CONCEPTS, type IntentionDocument as LexicalDocument, type LexicalIndex, type SearchHit as LexicalHit } from '@igw/lexical-index';
import { buildQuery, callAction, type ClassificationInput } from './call-query';
import { CandidateFeaturizer, type CallFeatures } from './candidate-features';
import { checkWeights, RANKER_WEIGHTS, rankerProbabilities, type RankerWeights } from './lexical-ranker';

/** The shared lexical index's documents and hits, labelled with the intent classes. */
export type IntentionDocument = LexicalDocument<IntentClass>;
export type SearchHit = LexicalHit<IntentClass>;

export const AMBIENT_LABEL = 'ambient';
export const AMBIENT_CLASS = 'other' satisfies IntentClass;

export type ClassificationDecision =
  | { kind: 'intention'; intentionId: string; label: string; intentClass: IntentClass }
  | { kind: 'ambient'; label: typeof AMBIENT_LABEL; intentClass: typeof AMBIENT_CLASS };

export interface SupportingEvidence {
  intent_label: string;
  intention_id: string;
  intent_class: IntentClass;
  /** BM25F score (the candidates are listed by the ranker's probability, see lexical-ranker.ts). */
  score: number;
  /** Score as a share of the most this query could score (0..1), comparable across calls. */
  relative_score: number;
  /** The ranker's probability that the call is this intention's (0..1). */
  probability: number;
  matched_terms: string[];
}

/** The `classification_evidence` object of the evaluate response (spec: schema_version 1). */
export interface ClassificationEvidence {
  classification_method: 'lexical';
  evaluation_layers_consulted: ['lexical'];
  confidence: number;
  supporting_evidence: SupportingEvidence[];
  schema_version: 1;
}

export interface LexicalClassification {
  decision: ClassificationDecision;
  /** Probability-like confidence in `decision`, 0..1. */
  confidence: number;
  /** False when a later layer (embedding, llm) should be asked. */
  confident: boolean;
  evidence: ClassificationEvidence;
  /** The numbers behind the decision (for tests, evaluation and threshold sweeps). */
  signals: LexicalFeatures & { evidence: number };
}

export interface LexicalClassifierOptions {
  /**
   * A match needs at least this probability, besides being likelier than "no intention covers
   * it"; 0 leaves the choice to the ranker alone.
   */
  ambientFloor: number;
  /** At or above this confidence the lexical decision stands without later layers. */
  confidentAt: number;
  /** Candidates reported in the evidence. */
  evidenceCandidates: number;
  /** Messages of conversation context read, most recent last. */
  contextMessages: number;
  /** The ranker's weights (see lexical-ranker.ts). */
  weights: RankerWeights;
}

export const DEFAULT_LEXICAL_OPTIONS: LexicalClassifierOptions = {
  ambientFloor: 0,
  confidentAt: 0.7,
  evidenceCandidates: 3,
  contextMessages: 3,
  weights: RANKER_WEIGHTS,
};

/**
 * Action verbs an intention permits by its class, on top of those its own text names (a write
 * intention whose description says "cancel" or "remove" permits delete too; one that says
 * "rotate" permits rotate). Reading is implied by lookup, reporting and analysis; an export is a
 * bulk extraction, not a single-record read; write covers creating content (write, send) but
 * not deleting; admin intentions are administrative changes (create, change, remove), not
 * reads of what they administer. Specific verbs (merge, reset, reject, scale, …) are never
 * implied: the intention must name them. `any`: `other` intentions are defined by their
 * object, not their verb.
 */
export const CLASS_ACTIONS: Readonly<Record<IntentClass, readonly string[] | 'any'>> = {
  lookup: ['read'],
  reporting: ['read'],
  analysis: ['read'],
  export: ['export'],
  write: ['write', 'send'],
  admin: ['write', 'delete'],
  other: 'any',
};

/** Candidates the ranker weighs (more than shown, so a lower BM25F hit can rise). */
const CANDIDATES = 10;

export interface LexicalFeatures {
  /** Best candidate's score over the query's maximum possible score (0..1). */
  relative: number;
  /** (top1 - top2) / top1; 1 when there is a single candidate, 0 when there is none. */
  margin: number;
  /** 1 when the best candidate permits the tool name's action verb (or there is none), else 0. */
  actionMatch: number;
  /**
   * 1 when the best candidate shares a word with the call besides the generic action verbs
   * (read, write, delete, export, send), else 0: a match on `get` alone says nothing about what
   * is being read.
   */
  objectMatch: number;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The lexical layer: ranks the org's active intentions for a tool call. */
export class LexicalClassifier {
  readonly options: LexicalClassifierOptions;

  private readonly featurizer: CandidateFeaturizer;

  constructor(
    private readonly index: LexicalIndex<IntentClass>,
    options: Partial<LexicalClassifierOptions> = {},
  ) {
    this.options = { ...DEFAULT_LEXICAL_OPTIONS, ...options };
    checkWeights(this.options.weights);
    this.featurizer = new CandidateFeaturizer(index);
  }

  /** The ranker's view of a call: its candidates with their features, and their probabilities. */
  rank(input: ClassificationInput): { features: CallFeatures; probabilities: { candidates: number[]; ambient: number } } {
    const action = callAction(input);
    const query = buildQuery(input, this.options.contextMessages, action);
    const { verb, generic } = action;
    const hits = this.index.search(query, Math.max(CANDIDATES, this.options.evidenceCandidates));
    const features = this.featurizer.features(input.toolName, query, hits, verb, generic, (h, v) => this.permits(h, v));
    return { features, probabilities: rankerProbabilities(features, this.options.weights) };
  }

  /** Whether an intention permits an action verb: by its class, or by naming it itself. */
  private permits(hit: SearchHit, verb: string): boolean {
    const implied = CLASS_ACTIONS[hit.doc.intentClass];
    return implied === 'any' || implied.includes(verb) || this.index.hasTerm(hit.doc.id, verb);
  }

  /**
   * `eligible` leaves candidates out after ranking (an operator's negative example, a binding to
   * other tools): their share of the probability goes nowhere, so the next one must still beat
   * "no intention" on its own.
   */
  classify(input: ClassificationInput, eligible?: (intentionId: string) => boolean): LexicalClassification {
    const { features, probabilities } = this.rank(input);
    const ranked = features.candidates
      .map((c, i) => ({ ...c, p: probabilities.candidates[i] ?? 0 }))
      .filter((c) => eligible === undefined || eligible(c.hit.doc.id))
      .sort((a, b) => b.p - a.p || (a.hit.doc.label < b.hit.doc.label ? -1 : a.hit.doc.label > b.hit.doc.label ? 1 : 0));
    const [first, second] = ranked;
    const pAmbient = probabilities.ambient;
    const isMatch = first !== undefined && first.p > pAmbient && first.p >= this.options.ambientFloor;
    const signals: LexicalFeatures = {
      relative: first?.x[0] ?? 0,
      margin: first && first.p > 0 ? (first.p - (second?.p ?? 0)) / first.p : 0,
      actionMatch: first === undefined || first.permitted ? 1 : 0,
      objectMatch: first !== undefined && first.hit.matchedTerms.some((t) => !ACTION_CONCEPTS.has(t)) ? 1 : 0,
    };
    const decision: ClassificationDecision = isMatch
      ? { kind: 'intention', intentionId: first.hit.doc.id, label: first.hit.doc.label, intentClass: first.hit.doc.intentClass }
      : { kind: 'ambient', label: AMBIENT_LABEL, intentClass: AMBIENT_CLASS };
    const confidence = round(isMatch ? first.p : pAmbient);
    return {
      decision,
      confidence,
      // A match whose action the intention does not permit is never final on its own: an
      // authorization decision hinges on the verb, so the later layers (or the ambient policy)
      // decide it, however well the nouns match.
      confident: confidence >= this.options.confidentAt && (!isMatch || first.permitted),
      evidence: {
        classification_method: 'lexical',
        evaluation_layers_consulted: ['lexical'],
        confidence,
        supporting_evidence: ranked.slice(0, this.options.evidenceCandidates).map((c) => ({
          intent_label: c.hit.doc.label,
          intention_id: c.hit.doc.id,
          intent_class: c.hit.doc.intentClass,
          score: round(c.hit.score),
          relative_score: round(c.x[0] ?? 0),
          probability: round(c.p),
          matched_terms: c.hit.matchedTerms,
        })),
        schema_version: 1,
      },
      signals: { ...signals, evidence: 1 - pAmbient },
    };
  }
}
