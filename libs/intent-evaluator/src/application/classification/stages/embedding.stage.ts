import { createHash } from 'node:crypto';
import { defined } from '@igw/kernel';
import type { ClassificationInput } from '../../../domain/classification';
import { callText, intentionText } from '../classification-text';
import type { EmbeddingModel } from '../embedding-model.port';
import { LruCache } from '../lru-cache';
import { ModelEndpointError } from '../model-endpoint.error';
import {
  candidateOf,
  lexicalRanking,
  round,
  type CascadeIntention,
  type ClassificationStage,
  type Ranked,
  type StageAnswer,
  type StageContext,
  decisionOf,
} from './classification-stage';
import { withTimeout } from './layer-timeout';
import type { ClassificationCascadeOptions } from '../cascade-options';

export type EmbeddingStageOptions = Pick<
  ClassificationCascadeOptions,
  | 'embeddingTimeoutMs'
  | 'embeddingCandidates'
  | 'embeddingAllUpTo'
  | 'embeddingCalibration'
  | 'embeddingConfidentAt'
  | 'embeddingCacheSize'
  | 'queryCacheSize'
  | 'embeddingContextMessages'
  | 'evidenceCandidates'
>;

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const byLabel = (a: { label: string }, b: { label: string }) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
const sha = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The embedding layer: compares the call with at most `max(embeddingAllUpTo,
 * embeddingCandidates)` intentions, whose vectors are cached (keyed by org, id@version and a hash
 * of the embedded text) and computed lazily, together with the call's own vector, in one batched
 * request — so its cost does not grow with the org's intentions.
 */
export class EmbeddingStage implements ClassificationStage {
  readonly layer = 'embedding' as const;
  private readonly vectors: LruCache<string, Float32Array>;
  private readonly queryVectors: LruCache<string, Float32Array>;
  /** Intention vectors being fetched, so concurrent calls share one request. */
  private readonly pending = new Map<string, Promise<Float32Array>>();
  /** Cache key of an intention object (the read model replaces the object when it changes). */
  private readonly keys = new WeakMap<CascadeIntention, { key: string; text: string }>();

  constructor(
    private readonly model: EmbeddingModel,
    private readonly options: EmbeddingStageOptions,
  ) {
    this.vectors = new LruCache(options.embeddingCacheSize);
    this.queryVectors = new LruCache(options.queryCacheSize);
  }

  async run(ctx: StageContext): Promise<StageAnswer | null> {
    const candidates = this.candidates(ctx);
    if (candidates.length === 0) return null;
    const text = callText(ctx.input as ClassificationInput, this.options.embeddingContextMessages);
    const { query, docs } = await withTimeout(this.embedAll(ctx.org.orgId, text, candidates), this.options.embeddingTimeoutMs);

    const matched = new Map(ctx.hits().map((h) => [h.doc.id, h.matchedTerms]));
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
    // Hand-set, not calibrated on labelled calls (decision 0018): a model layer ranks candidates
    // for the human and may find "none", but never makes a match certain.
    const certain = false;
    return {
      layer: 'embedding',
      decision: decisionOf(isMatch ? best.doc : undefined),
      confidence,
      certain,
      candidates: scored.slice(0, this.options.evidenceCandidates).map((s, i) => candidateOf(s.doc, i === 0 && isMatch ? confidence : 0)),
      settled: confidence >= this.options.embeddingConfidentAt,
      supporting: ranking.slice(0, this.options.evidenceCandidates).map((r) => r.evidence),
      ranking: () => ranking,
    };
  }

  /** Small org: every eligible active intention. Large org: the lexical top N (the call's cost stays bounded). */
  private candidates(ctx: StageContext): CascadeIntention[] {
    if (ctx.org.size <= this.options.embeddingAllUpTo) return ctx.org.documents().filter((d) => ctx.eligible(d.id));
    return lexicalRanking(ctx, ctx.hits().slice(0, this.options.embeddingCandidates)).map((r) => r.doc);
  }

  /**
   * Unit vectors for the call text and the candidates: cached ones from the LRU, ones another
   * call is already fetching from that request, and the rest (with the call text when it is not
   * cached) in one `embed` request.
   */
  private async embedAll(orgId: string, text: string, candidates: readonly CascadeIntention[]): Promise<{ query: Float32Array; docs: Float32Array[] }> {
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
      const batch = this.model.embed(texts, { timeoutMs: this.options.embeddingTimeoutMs }).then((raw) => unitVectors(raw, texts.length));
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
