import { DEFAULT_BM25, documentFields, FIELDS, type Bm25Params, type IntentionDocument, type QueryTerm } from './document';
import { DENSE, MIN_DENSE, NF, NO_WORDS, popcount, PostingList, TOP_G } from './postings';
import { SearchScratch } from './search-scratch';

interface Entry<L extends string> {
  slot: number;
  doc: IntentionDocument<L>;
  /** Field lengths in terms, FIELDS order. */
  lengths: number[];
  /** Distinct terms, to take the document out of its posting lists on remove. */
  terms: string[];
}

/**
 * The corpus side of the index: documents in slots, their posting lists and the running corpus
 * statistics, plus the per-list values a search derives from them (`refresh`). Searching is in
 * the subclasses (top-k bookkeeping in `TopKCorpus`, the MaxScore pass in `LexicalIndex`).
 */
export abstract class LexicalCorpus<L extends string = string> {
  protected readonly postings = new Map<string, PostingList>();
  protected readonly slots: (Entry<L> | undefined)[] = [];
  protected readonly freeSlots: number[] = [];
  protected readonly byId = new Map<string, Entry<L>>();
  protected readonly lengthSums = new Float64Array(NF);
  /** Field lengths by slot (slot × NF + field), contiguous for the refresh loop. */
  protected lengths = new Float64Array(64 * NF);
  /** Bumped by every change of the corpus: stales every list's `xs` and the norms. */
  protected version = 0;
  protected readonly normCache = new Float64Array(NF);
  protected normVersion = -1;
  protected readonly weights: Float64Array;
  protected readonly bs: Float64Array;
  protected readonly oneMinusB: Float64Array;
  protected readonly k1: number;
  /**
   * Whether a term's contribution is nondecreasing in its pseudo-frequency and never negative,
   * so per-list maxima bound it. True for any sensible parameters (weights ≥ 0, 0 ≤ b ≤ 1,
   * k1 ≥ 0); otherwise every search scores every matching document.
   */
  protected readonly prunable: boolean;
  protected readonly scratch = new SearchScratch();

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {
    this.weights = Float64Array.from(FIELDS.map((f) => params.fields[f].weight));
    this.bs = Float64Array.from(FIELDS.map((f) => params.fields[f].b));
    this.oneMinusB = this.bs.map((b) => 1 - b);
    this.k1 = params.k1;
    this.prunable = params.k1 >= 0 && this.weights.every((w) => w >= 0) && this.bs.every((b) => b >= 0 && b <= 1);
  }

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): IntentionDocument<L> | undefined {
    return this.byId.get(id)?.doc;
  }

  /** Whether intention `id` contains `term` in any field (a map lookup and a binary search). */
  hasTerm(id: string, term: string): boolean {
    const entry = this.byId.get(id);
    return entry !== undefined && (this.postings.get(term)?.find(entry.slot) ?? -1) >= 0;
  }

  /** Number of indexed intentions containing `term` (in any field). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  /**
   * BM25 idf, the "+1" variant that stays positive when a term is in most documents. A term in
   * no document gets the idf of a term in one: absent terms are rare, but not infinitely so.
   */
  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  protected idfOf(documentFrequency: number): number {
    const n = this.byId.size;
    const df = Math.max(1, documentFrequency);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Adds or replaces one intention (by id). */
  upsert(doc: IntentionDocument<L>): void {
    this.remove(doc.id);
    const fields = documentFields(doc);
    const slot = this.freeSlots.pop() ?? this.slots.length;
    const tf = new Map<string, Uint32Array>();
    const lengths: number[] = [];
    FIELDS.forEach((f, i) => {
      const terms = fields[f];
      lengths.push(terms.length);
      this.lengthSums[i]! += terms.length;
      for (const t of terms) {
        let v = tf.get(t);
        if (!v) tf.set(t, (v = new Uint32Array(NF)));
        v[i]! += 1;
      }
    });
    for (const [t, v] of tf) {
      let list = this.postings.get(t);
      if (!list) this.postings.set(t, (list = new PostingList()));
      list.add(slot, v);
    }
    if (this.lengths.length < (slot + 1) * NF) {
      const grown = new Float64Array(Math.max((slot + 1) * NF, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    lengths.forEach((len, i) => (this.lengths[slot * NF + i] = len));
    const entry: Entry<L> = { slot, doc, lengths, terms: [...tf.keys()] };
    this.slots[slot] = entry;
    this.byId.set(doc.id, entry);
    this.version++;
  }

  /** Bulk load (the read model's initial fill, a bench's 10k synthetic intentions). */
  upsertMany(docs: Iterable<IntentionDocument<L>>): void {
    for (const d of docs) this.upsert(d);
  }

  /** Keeps the index equal to the set of active intentions: upsert if active, else remove. */
  sync(doc: IntentionDocument<L>): void {
    if (doc.status === undefined || doc.status === 'active') this.upsert(doc);
    else this.remove(doc.id);
  }

  /** Takes one intention out; true when it was there. */
  remove(id: string): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    for (const t of entry.terms) {
      const list = this.postings.get(t)!;
      list.delete(entry.slot);
      if (list.size === 0) this.postings.delete(t);
    }
    entry.lengths.forEach((len, i) => (this.lengthSums[i]! -= len));
    this.slots[entry.slot] = undefined;
    this.freeSlots.push(entry.slot);
    this.byId.delete(id);
    this.version++;
    return true;
  }

  clear(): void {
    for (const id of [...this.byId.keys()]) this.remove(id);
  }

  /**
   * Recomputes a list's per-posting values for the current corpus statistics: the pseudo-
   * frequency x (field frequencies length-normalised and weighted; `norm` holds, per field,
   * b × N / Σ lengths, see `norms`), computed with the same float operations in the same order
   * as the exhaustive pass; its saturation g, their maximum and largest values; and, for a list
   * holding at least 1/DENSE of the slots, the bitmap of its slots with per-word ranks.
   */
  protected refresh(list: PostingList, norm: Float64Array): void {
    const { slots, tfs, xs, gs, size, topG: top } = list;
    const { weights, oneMinusB, lengths, k1 } = this;
    const k1p1 = k1 + 1;
    let max = 0;
    for (let p = 0; p < size; p++) {
      const base = slots[p]! * NF;
      const at = p * NF;
      let x = 0;
      for (let i = 0; i < NF; i++) {
        const f = tfs[at + i]!;
        if (f !== 0) x += (weights[i]! * f) / (oneMinusB[i]! + norm[i]! * lengths[base + i]!);
      }
      xs[p] = x;
      const g = (k1p1 * x) / (x + k1);
      gs[p] = g;
      if (g > max) max = g;
      if (p < TOP_G || g > top[TOP_G - 1]!) {
        let j = Math.min(p, TOP_G - 1);
        for (; j > 0 && top[j - 1]! < g; j--) top[j] = top[j - 1]!;
        top[j] = g;
      }
    }
    list.maxG = max;
    list.version = this.version;
    if (size >= MIN_DENSE && size * DENSE >= this.slots.length) {
      const words = (this.slots.length + 31) >> 5;
      if (list.bits.length < words) {
        list.bits = new Int32Array(words + (words >> 2));
        list.ranks = new Int32Array(list.bits.length);
      } else list.bits.fill(0);
      const bits = list.bits;
      for (let p = 0; p < size; p++) bits[slots[p]! >> 5]! |= 1 << (slots[p]! & 31);
      for (let i = 0, r = 0; i < bits.length; i++) {
        list.ranks[i] = r;
        r += popcount(bits[i]!);
      }
    } else if (list.bits.length > 0) {
      list.bits = NO_WORDS;
      list.ranks = NO_WORDS;
    }
  }

  /** Per field, b / average length: the corpus statistics a search needs, recomputed after a change. */
  protected norms(): Float64Array {
    if (this.normVersion !== this.version) {
      const n = this.byId.size;
      for (let i = 0; i < NF; i++) this.normCache[i] = (this.bs[i]! * n) / Math.max(this.lengthSums[i]!, 1e-9);
      this.normVersion = this.version;
    }
    return this.normCache;
  }

  /**
   * The most a document could score for this query: every term matched with a saturated
   * frequency. The classifier divides by it to compare scores across queries of any length.
   */
  maxScore(query: readonly QueryTerm[]): number {
    let s = 0;
    for (const { term, weight } of query) if (weight > 0) s += weight * this.idf(term) * (this.params.k1 + 1);
    return s;
  }
}
