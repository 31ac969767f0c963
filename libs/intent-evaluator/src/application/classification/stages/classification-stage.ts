import {
  AMBIENT_CLASS,
  AMBIENT_LABEL,
  type ClassificationDecision,
  type ClassificationInput,
  type ExampleIndex,
  type ExampleVerdict,
  type IntentionDocument,
  type LexicalClassification,
  type MatchCandidate,
  type QueryTerm,
  type SearchHit,
  type StageConclusion,
} from '../../../domain/classification';
import type { CascadeSupportingEvidence, ClassificationLayer, LayerError } from '../cascade-evidence';

/** An active intention as the cascade sees it: its text, bindings and version. */
export interface CascadeIntention extends IntentionDocument {
  readonly version: number;
  /** Tool-name patterns it covers exactly (DESIGN 6.15); [] when the classifier decides. */
  readonly tools: readonly string[];
}

/**
 * What the cascade needs of one org's active intentions. The read model's `OrgIntentions`
 * satisfies it.
 */
export interface CascadeOrg {
  /** Scopes the embedding cache. */
  readonly orgId: string;
  readonly classifier: { classify(input: ClassificationInput, eligible?: (intentionId: string) => boolean): LexicalClassification };
  /** Number of active intentions. */
  readonly size: number;
  intention(id: string): CascadeIntention | undefined;
  /** Every active intention (called only when `size` is small, see `embeddingAllUpTo`). */
  documents(): readonly CascadeIntention[];
  /** Active intentions that have `tools`. */
  bound(): readonly CascadeIntention[];
  /** Active intentions whose label, normalized (`normalizedName`), is this. */
  named(normalizedLabel: string): readonly CascadeIntention[];
  /** The examples of the active intentions. */
  readonly examples: ExampleIndex;
  /** The lexical index's top-k for a query (`LexicalIndex.search`). */
  search(query: readonly QueryTerm[], k: number): readonly SearchHit[];
}

/** A candidate ranked by the lexical or the embedding layer, best first. */
export interface Ranked {
  doc: CascadeIntention;
  evidence: CascadeSupportingEvidence;
}

/** One stage's answer: its conclusion plus what the evidence reports of it. */
export interface StageAnswer extends StageConclusion {
  /** Later stages are not asked (a binding, an example, a certain match, a clear "none"). */
  settled: boolean;
  supporting: CascadeSupportingEvidence[];
  /** The ranking later layers start from, when this stage ranked candidates (computed on first use: most calls never need it). */
  ranking?: () => Ranked[];
  llmReason?: string;
  /** What matched, for the evidence: a binding's pattern, examples' ids. */
  matched?: { binding?: string; examples?: string[] };
}

/** The call being classified and what the stages share about it. */
export interface StageContext {
  readonly org: CascadeOrg;
  readonly input: ClassificationInput;
  /** What the org's examples say of the call. */
  readonly examples: ExampleVerdict;
  /** Whether an intention may be matched to this call by a ranking layer (not vetoed by a negative example, not bound to other tools). */
  eligible(intentionId: string): boolean;
  /** The lexical index's hits for the call (computed once, on first use). */
  hits(): readonly SearchHit[];
}

/** A layer of the cascade: binding, examples, lexical, embedding, llm. A new layer is a new stage. */
export interface ClassificationStage {
  readonly layer: ClassificationLayer;
  /** null: the stage has nothing to say (the previous answer stands; the next stage runs). Errors are the layer's failure. */
  run(ctx: StageContext, previous: StageAnswer | null): StageAnswer | null | Promise<StageAnswer | null>;
}

export const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The decision for an intention, or "no intention" (ambient) when there is none. */
export const decisionOf = (doc: Pick<IntentionDocument, 'id' | 'label' | 'intentClass'> | undefined): ClassificationDecision =>
  doc
    ? { kind: 'intention', intentionId: doc.id, label: doc.label, intentClass: doc.intentClass }
    : { kind: 'ambient', label: AMBIENT_LABEL, intentClass: AMBIENT_CLASS };

export const candidateOf = (doc: IntentionDocument, confidence: number): MatchCandidate => ({
  intentionId: doc.id,
  label: doc.label,
  intentClass: doc.intentClass,
  confidence: round(confidence),
});

/** A candidate's evidence entry: its lexical index score when the index ranked it. */
export function lexicalEvidence(doc: IntentionDocument, hit: SearchHit | undefined): CascadeSupportingEvidence {
  return {
    intent_label: doc.label,
    intention_id: doc.id,
    intent_class: doc.intentClass,
    matched_terms: hit?.matchedTerms ?? [],
    ...(hit ? { score: round(hit.score) } : {}),
  };
}

/** Lexical hits as ranked candidates (only eligible intentions the org still has, with their version). */
export function lexicalRanking(ctx: StageContext, hits: readonly SearchHit[]): Ranked[] {
  const out: Ranked[] = [];
  for (const h of hits) {
    const doc = ctx.org.intention(h.doc.id);
    if (doc && ctx.eligible(doc.id)) out.push({ doc, evidence: lexicalEvidence(doc, h) });
  }
  return out;
}

export type { LayerError };
