import { DEFAULT_BM25, documentFields, FIELDS, type Bm25Params, type IntentionDocument, type QueryTerm } from './document';

const NF = FIELDS.length;

/** What the store needs of a posting list (the index's sorted lists, the test oracle's own). */
export interface StoredPostings {
  readonly size: number;
  add(slot: number, tf: Uint32Array): void;
  delete(slot: number): void;
  /** Position of `slot` in the list, or -1. */
  find(slot: number): number;
}

export interface Entry<L extends string> {
  slot: number;
  doc: IntentionDocument<L>;
  /** Field lengths in terms, FIELDS order. */
  lengths: number[];
  /** Distinct terms, to take the document out of its posting lists on remove. */
  terms: string[];
}

/**
 * Documents in slots with their posting lists and the running corpus statistics (document
 * count, field length sums, per-field norms), kept exact on every change; `version` says which
 * change they are at. How a search uses them is up to the subclass.
 */
export abstract class DocumentStore<L extends string, P extends StoredPostings> {
  protected readonly postings = new Map<string, P>();
  protected readonly slots: (Entry<L> | undefined)[] = [];
  protected readonly freeSlots: number[] = [];
  protected readonly byId = new Map<string, Entry<L>>();
  protected readonly lengthSums = new Float64Array(NF);
  /** Field lengths by slot (slot × NF + field), contiguous for the scoring loops. */
  protected lengths = new Float64Array(64 * NF);
  /** Bumped by every change of the corpus: stales whatever was derived from the statistics. */
  protected version = 0;
  protected readonly normCache = new Float64Array(NF);
  protected normVersion = -1;
  protected readonly weights: Float64Array;
  protected readonly bs: Float64Array;
  protected readonly oneMinusB: Float64Array;

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {
    this.weights = Float64Array.from(FIELDS.map((f) => params.fields[f].weight));
    this.bs = Float64Array.from(FIELDS.map((f) => params.fields[f].b));
    this.oneMinusB = this.bs.map((b) => 1 - b);
  }

  /** A new, empty posting list. */
  protected abstract newPostings(): P;

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): IntentionDocument<L> | undefined {
    return this.byId.get(id)?.doc;
  }

  /** Whether intention `id` contains `term` in any field (a map lookup and a list lookup). */
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
      this.lengthSums[i] = (this.lengthSums[i] ?? 0) + terms.length;
      for (const t of terms) {
        let v = tf.get(t);
        if (!v) tf.set(t, (v = new Uint32Array(NF)));
        v[i] = (v[i] ?? 0) + 1;
      }
    });
    for (const [t, v] of tf) {
      let list = this.postings.get(t);
      if (!list) this.postings.set(t, (list = this.newPostings()));
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
      const list = this.postings.get(t);
      if (list === undefined) throw new Error(`internal invariant broken: no posting list for term ${t}`);
      list.delete(entry.slot);
      if (list.size === 0) this.postings.delete(t);
    }
    entry.lengths.forEach((len, i) => (this.lengthSums[i] = (this.lengthSums[i] ?? 0) - len));
    this.slots[entry.slot] = undefined;
    this.freeSlots.push(entry.slot);
    this.byId.delete(id);
    this.version++;
    return true;
  }

  clear(): void {
    for (const id of [...this.byId.keys()]) this.remove(id);
  }

  /** Per field, b / average length: the corpus statistics a search needs, recomputed after a change. */
  protected norms(): Float64Array {
    if (this.normVersion !== this.version) {
      const n = this.byId.size;
      for (let i = 0; i < NF; i++) this.normCache[i] = ((this.bs[i] ?? 0) * n) / Math.max(this.lengthSums[i] ?? 0, 1e-9);
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
