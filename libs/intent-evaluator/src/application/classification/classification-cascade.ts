import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  AMBIENT_CLASS,
  AMBIENT_LABEL,
  buildQuery,
  type ClassificationDecision,
  type ClassificationInput,
  type IntentionDocument,
  type LexicalClassification,
  type QueryTerm,
  type SearchHit,
} from '../../domain/classification';
import type { CascadeEvidence, CascadeResult, CascadeSupportingEvidence, ClassificationLayer, LayerError } from './cascade-evidence';
import { CHAT_MODEL, type ChatModel } from './chat-model.port';
import { callText, intentionText } from './classification-text';
import { EMBEDDING_MODEL, type EmbeddingModel } from './embedding-model.port';
import { InvalidLlmAnswerError, llmMessages, parseLlmAnswer } from './llm-prompt';
import { LruCache } from './lru-cache';
import { ModelEndpointError } from './model-endpoint.error';
import { defined } from '@igw/kernel';

/** An active intention with the version its embedding is cached under. */
export interface CascadeIntention extends IntentionDocument {
  readonly version: number;
}

/**
 * What the cascade needs of one org's active intentions. The read model's `OrgIntentions`
 * satisfies it.
 */
export interface CascadeOrg {
  /** Scopes the embedding cache. */
  readonly orgId: string;
  readonly classifier: { classify(input: ClassificationInput): LexicalClassification };
  /** Number of active intentions. */
  readonly size: number;
  intention(id: string): CascadeIntention | undefined;
  /** Every active intention (called only when `size` is small, see `embeddingAllUpTo`). */
  documents(): readonly CascadeIntention[];
  /** The lexical index's top-k for a query (`LexicalIndex.search`). */
  search(query: readonly QueryTerm[], k: number): readonly SearchHit[];
}

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

export interface ClassificationCascadeOptions {
  /** Bound for one embeddings call (the call's text plus uncached intentions, one batch), ms. */
  embeddingTimeoutMs: number;
  /** Candidates of the embedding layer in a large org: the lexical index's top N. */
  embeddingCandidates: number;
  /** Orgs with at most this many active intentions compare the call with every one of them. */
  embeddingAllUpTo: number;
  embeddingCalibration: EmbeddingCalibration;
  /** At or above this confidence the embedding decision stands without the llm. */
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

/** One layer's answer. */
interface Stage {
  layer: ClassificationLayer;
  decision: ClassificationDecision;
  confidence: number;
  confident: boolean;
  supporting: CascadeSupportingEvidence[];
  llmReason?: string;
}

/** A candidate ranked by the lexical or the embedding layer, best first. */
interface Ranked {
  doc: CascadeIntention;
  evidence: CascadeSupportingEvidence;
}

class LayerTimeoutError extends Error {}

const AMBIENT: ClassificationDecision = { kind: 'ambient', label: AMBIENT_LABEL, intentClass: AMBIENT_CLASS };
const round = (x: number) => Math.round(x * 10_000) / 10_000;
const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const byLabel = (a: { label: string }, b: { label: string }) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
const sha = (text: string) => createHash('sha256').update(text).digest('base64url');
const toDecision = (doc: IntentionDocument): ClassificationDecision => ({
  kind: 'intention',
  intentionId: doc.id,
  label: doc.label,
  intentClass: doc.intentClass,
});
/** Failures are logged at most this often per layer (a down endpoint must not flood the log). */
const LOG_EVERY_MS = 30_000;

/**
 * The classification cascade of DESIGN 6.4: `lexical` always; `embedding` when an embeddings
 * endpoint is bound (EMBEDDING_MODEL) and the lexical layer is not confident; `llm` when a chat
 * endpoint is bound (CHAT_MODEL) and the layers before it are not confident. A layer that fails
 * (endpoint down, timeout, malformed or invalid answer) never fails the evaluation: the previous
 * layer's decision stands and `layer_errors` records the failure.
 *
 * Cost per call does not grow with the org's intentions: the embedding layer compares the call
 * with at most `max(embeddingAllUpTo, embeddingCandidates)` intentions, whose vectors are cached
 * (keyed by org, id@version and a hash of the embedded text) and computed lazily, together with
 * the call's own vector, in one batched request.
 */
@Injectable()
export class ClassificationCascade {
  readonly options: ClassificationCascadeOptions;
  private readonly log = new Logger(ClassificationCascade.name);
  private readonly vectors: LruCache<string, Float32Array>;
  private readonly queryVectors: LruCache<string, Float32Array>;
  /** Intention vectors being fetched, so concurrent calls share one request. */
  private readonly pending = new Map<string, Promise<Float32Array>>();
  /** Cache key of an intention object (the read model replaces the object when it changes). */
  private readonly keys = new WeakMap<CascadeIntention, { key: string; text: string }>();
  private readonly lastLogged = new Map<string, number>();

  constructor(
    @Optional() @Inject(EMBEDDING_MODEL) private readonly embedding?: EmbeddingModel | null,
    @Optional() @Inject(CHAT_MODEL) private readonly chat?: ChatModel | null,
    @Optional() @Inject(CLASSIFICATION_CASCADE_OPTIONS) overrides?: ClassificationCascadeOverrides | null,
  ) {
    const { embeddingCalibration, ...rest } = overrides ?? {};
    this.options = {
      ...DEFAULT_CASCADE_OPTIONS,
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
      embeddingCalibration: { ...DEFAULT_EMBEDDING_CALIBRATION, ...embeddingCalibration },
    };
    this.vectors = new LruCache(this.options.embeddingCacheSize);
    this.queryVectors = new LruCache(this.options.queryCacheSize);
  }

  /** Which layers can run (lexical always). */
  get layers(): ClassificationLayer[] {
    return ['lexical', ...(this.embedding ? (['embedding'] as const) : []), ...(this.chat ? (['llm'] as const) : [])];
  }

  async classify(org: CascadeOrg, input: ClassificationInput): Promise<CascadeResult> {
    const lexical = org.classifier.classify(input);
    if (lexical.confident || (!this.embedding && !this.chat)) {
      return { decision: lexical.decision, confidence: lexical.confidence, evidence: lexical.evidence };
    }

    const consulted: ClassificationLayer[] = ['lexical'];
    const errors: LayerError[] = [];
    let stage: Stage = {
      layer: 'lexical',
      decision: lexical.decision,
      confidence: lexical.confidence,
      confident: false,
      supporting: lexical.evidence.supporting_evidence,
    };
    const hits = org.search(buildQuery(input), Math.max(this.options.embeddingCandidates, this.options.llmCandidates));
    let ranking: Ranked[] = this.lexicalRanking(org, hits);

    if (this.embedding) {
      consulted.push('embedding');
      try {
        const result = await this.embeddingLayer(this.embedding, org, input, hits);
        if (result) {
          stage = result.stage;
          ranking = result.ranking;
        }
      } catch (err) {
        errors.push(this.layerError('embedding', err));
      }
    }

    if (this.chat && !stage.confident) {
      const candidates = this.llmCandidates(org, ranking);
      if (candidates.length > 0) {
        consulted.push('llm');
        try {
          stage = await this.llmLayer(this.chat, input, candidates, stage);
        } catch (err) {
          errors.push(this.layerError('llm', err));
        }
      }
    }

    const evidence: CascadeEvidence = {
      classification_method: stage.layer,
      evaluation_layers_consulted: consulted,
      confidence: stage.confidence,
      supporting_evidence: stage.supporting,
      ...(errors.length > 0 ? { layer_errors: errors } : {}),
      ...(stage.llmReason !== undefined ? { llm_reason: stage.llmReason } : {}),
      schema_version: 1,
    };
    return { decision: stage.decision, confidence: stage.confidence, evidence };
  }

  // ---- embedding layer --------------------------------------------------------------------

  private async embeddingLayer(
    model: EmbeddingModel,
    org: CascadeOrg,
    input: ClassificationInput,
    hits: readonly SearchHit[],
  ): Promise<{ stage: Stage; ranking: Ranked[] } | null> {
    const candidates = this.embeddingCandidates(org, hits);
    if (candidates.length === 0) return null;
    const text = callText(input, this.options.embeddingContextMessages);
    const { query, docs } = await this.withTimeout(this.embedAll(model, org.orgId, text, candidates), this.options.embeddingTimeoutMs);

    const matched = new Map(hits.map((h) => [h.doc.id, h.matchedTerms]));
    const scored = candidates
      .map((doc, i) => ({ doc, label: doc.label, similarity: dot(query, defined(docs[i], `embedding of ${doc.id}`)) }))
      .sort((a, b) => b.similarity - a.similarity || byLabel(a, b));
    const ranking: Ranked[] = scored.map(({ doc, similarity }) => ({
      doc,
      evidence: {
        intent_label: doc.label,
        intention_id: doc.id,
        intent_class: doc.intentClass,
        similarity: round(similarity),
        matched_terms: matched.get(doc.id) ?? [],
      },
    }));

    const c = this.options.embeddingCalibration;
    const best = defined(scored[0], 'the best embedding candidate');
    const s1 = best.similarity;
    const s2 = scored[1]?.similarity ?? 0;
    const pCovered = logistic(c.slope * (s1 - c.floor));
    const isMatch = s1 >= c.floor;
    const confidence = round(isMatch ? pCovered * (0.5 + 0.5 * Math.min(1, Math.max(0, s1 - s2) / c.clearMargin)) : 1 - pCovered);
    const stage: Stage = {
      layer: 'embedding',
      decision: isMatch ? toDecision(best.doc) : AMBIENT,
      confidence,
      confident: confidence >= this.options.embeddingConfidentAt,
      supporting: ranking.slice(0, this.options.evidenceCandidates).map((r) => r.evidence),
    };
    return { stage, ranking };
  }

  /** Small org: every active intention. Large org: the lexical top N (the call's cost stays bounded). */
  private embeddingCandidates(org: CascadeOrg, hits: readonly SearchHit[]): CascadeIntention[] {
    if (org.size <= this.options.embeddingAllUpTo) return [...org.documents()];
    return this.lexicalRanking(org, hits.slice(0, this.options.embeddingCandidates)).map((r) => r.doc);
  }

  /**
   * Unit vectors for the call text and the candidates: cached ones from the LRU, ones another
   * call is already fetching from that request, and the rest (with the call text when it is not
   * cached) in one `embed` request.
   */
  private async embedAll(
    model: EmbeddingModel,
    orgId: string,
    text: string,
    candidates: readonly CascadeIntention[],
  ): Promise<{ query: Float32Array; docs: Float32Array[] }> {
    const queryKey = `${orgId}\u0000${sha(text)}`;
    const cachedQuery = this.queryVectors.get(queryKey);
    const docs: (Float32Array | Promise<Float32Array>)[] = [];
    const missing: { key: string; text: string; at: number }[] = [];
    for (const doc of candidates) {
      const { key, text: docText } = this.keyOf(orgId, doc);
      const known = this.vectors.get(key) ?? this.pending.get(key);
      if (known) docs.push(known);
      else {
        missing.push({ key, text: docText, at: docs.length });
        docs.push(undefined as never); // filled below
      }
    }

    let query: Float32Array | Promise<Float32Array> | undefined = cachedQuery;
    if (missing.length > 0 || !query) {
      const texts = [...(query ? [] : [text]), ...missing.map((m) => m.text)];
      const offset = query ? 0 : 1;
      const batch = model.embed(texts, { timeoutMs: this.options.embeddingTimeoutMs }).then((raw) => unitVectors(raw, texts.length));
      if (!query) {
        query = batch.then((v) => defined(v[0], 'the query embedding'));
        query.then(
          (v) => this.queryVectors.set(queryKey, v),
          () => undefined,
        );
      }
      missing.forEach((m, j) => {
        const vector = batch.then((v) => defined(v[offset + j], `embedding of ${m.key}`));
        docs[m.at] = vector;
        this.pending.set(m.key, vector);
        vector
          .then(
            (v) => this.vectors.set(m.key, v),
            () => undefined,
          )
          .finally(() => {
            if (this.pending.get(m.key) === vector) this.pending.delete(m.key);
          });
      });
    }
    const [q, ...d] = await Promise.all([defined(query, 'the query embedding'), ...docs]);
    for (const v of d) if (v.length !== q.length) throw new ModelEndpointError('malformed_response', 'embeddings of different dimensions');
    return { query: q, docs: d };
  }

  private keyOf(orgId: string, doc: CascadeIntention): { key: string; text: string } {
    let entry = this.keys.get(doc);
    if (!entry) {
      const text = intentionText(doc);
      entry = { key: `${orgId}\u0000${doc.id}@${doc.version}\u0000${sha(text)}`, text };
      this.keys.set(doc, entry);
    }
    return entry;
  }

  // ---- llm layer --------------------------------------------------------------------------

  /** All intentions when the org has no more than `llmCandidates`, else the best of the last ranking. */
  private llmCandidates(org: CascadeOrg, ranking: readonly Ranked[]): Ranked[] {
    const k = this.options.llmCandidates;
    // "ambient" is the answer for no intention; an intention labelled so is never offered.
    const usable = (doc: CascadeIntention) => doc.label !== AMBIENT_LABEL;
    if (org.size > k) return ranking.filter((r) => usable(r.doc)).slice(0, k);
    const ranked = new Set(ranking.map((r) => r.doc.id));
    const rest = [...org.documents()].filter((d) => !ranked.has(d.id)).sort(byLabel);
    return [...ranking, ...rest.map((doc) => ({ doc, evidence: lexicalEvidence(doc, undefined) }))].filter((r) => usable(r.doc)).slice(0, k);
  }

  private async llmLayer(model: ChatModel, input: ClassificationInput, candidates: Ranked[], previous: Stage): Promise<Stage> {
    const messages = llmMessages(
      candidates.map((c) => c.doc),
      input,
      this.options.llmContextMessages,
    );
    const raw = await this.withTimeout(model.completeJson(messages, { timeoutMs: this.options.llmTimeoutMs }), this.options.llmTimeoutMs);
    const answer = parseLlmAnswer(raw, new Set(candidates.map((c) => c.doc.label)));
    const chosen = candidates.find((c) => c.doc.label === answer.label);
    // The previous layer's top candidates, the llm's choice first.
    const supporting = chosen
      ? [
          previous.supporting.find((e) => e.intention_id === chosen.doc.id) ?? chosen.evidence,
          ...previous.supporting.filter((e) => e.intention_id !== chosen.doc.id),
        ].slice(0, Math.max(previous.supporting.length, 1))
      : previous.supporting;
    return {
      layer: 'llm',
      decision: chosen ? toDecision(chosen.doc) : AMBIENT,
      confidence: round(answer.confidence),
      confident: true,
      supporting,
      llmReason: answer.reason,
    };
  }

  // ---- shared -----------------------------------------------------------------------------

  /** Lexical hits as ranked candidates (only intentions the org still has, with their version). */
  private lexicalRanking(org: CascadeOrg, hits: readonly SearchHit[]): Ranked[] {
    const out: Ranked[] = [];
    for (const h of hits) {
      const doc = org.intention(h.doc.id);
      if (doc) out.push({ doc, evidence: lexicalEvidence(doc, h) });
    }
    return out;
  }

  private withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LayerTimeoutError(`no answer within ${ms} ms`)), ms);
      timer.unref?.();
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  private layerError(layer: LayerError['layer'], err: unknown): LayerError {
    const error: LayerError =
      err instanceof ModelEndpointError
        ? { layer, reason: err.failure, ...(err.status !== undefined ? { status: err.status } : {}) }
        : err instanceof LayerTimeoutError
          ? { layer, reason: 'timeout' }
          : err instanceof InvalidLlmAnswerError
            ? { layer, reason: 'invalid_answer' }
            : { layer, reason: 'error' };
    const now = Date.now();
    if (now - (this.lastLogged.get(layer) ?? -Infinity) >= LOG_EVERY_MS) {
      this.lastLogged.set(layer, now);
      // The message of our own errors names no key, request or response body; others are not echoed.
      const detail =
        err instanceof ModelEndpointError || err instanceof LayerTimeoutError || err instanceof InvalidLlmAnswerError ? err.message : (err as Error)?.name;
      this.log.warn(`${layer} layer failed (${error.reason}${error.status ? ` ${error.status}` : ''}: ${detail}); the previous layer's decision stands`);
    }
    return error;
  }
}

/** A candidate's evidence entry: its lexical index score when the index ranked it. */
function lexicalEvidence(doc: IntentionDocument, hit: SearchHit | undefined): CascadeSupportingEvidence {
  return {
    intent_label: doc.label,
    intention_id: doc.id,
    intent_class: doc.intentClass,
    matched_terms: hit?.matchedTerms ?? [],
    ...(hit ? { score: round(hit.score) } : {}),
  };
}

/** Validates an embeddings answer and scales each vector to unit length. */
function unitVectors(raw: unknown, expected: number): Float32Array[] {
  if (!Array.isArray(raw) || raw.length !== expected) throw new ModelEndpointError('malformed_response', `expected ${expected} embeddings`);
  let dimension = -1;
  return raw.map((v: unknown) => {
    if (!Array.isArray(v) || v.length === 0 || (dimension !== -1 && v.length !== dimension))
      throw new ModelEndpointError('malformed_response', 'embeddings are not vectors of one dimension');
    dimension = v.length;
    const out = new Float32Array(v.length);
    let norm = 0;
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as unknown;
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new ModelEndpointError('malformed_response', 'embedding holds a non-number');
      out[i] = x;
      norm += x * x;
    }
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * inv;
    }
    return out;
  });
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}
