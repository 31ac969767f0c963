import type { IntentClass } from '@igw/kernel';
import { affirmativeSentences, tokenize } from './tokenize';

/**
 * What the classifier needs of an intention (the evaluator's read model, fed by intention
 * events). Only active intentions belong in the index; `syncIntention` applies that rule.
 */
export interface IntentionDocument {
  id: string;
  label: string;
  displayName: string;
  description: string;
  intentClass: IntentClass;
  dataElements: readonly { dataSourceId: string; path: string }[];
  /** When given, anything but `active` is kept out of the index. */
  status?: 'draft' | 'active' | 'archived';
}

/** Indexed fields, in posting order. */
export const FIELDS = ['label', 'displayName', 'description', 'data', 'intentClass'] as const;
export type Field = (typeof FIELDS)[number];

/**
 * BM25F parameters. Labels and display names are short, operator-chosen names: a match there is
 * worth more than one in free-text description, and length normalisation matters little
 * (low b). Data-element paths name the objects the intention touches (contacts.email).
 */
export interface Bm25Params {
  k1: number;
  fields: Record<Field, { weight: number; b: number }>;
}

export const DEFAULT_BM25: Bm25Params = {
  k1: 1.2,
  fields: {
    label: { weight: 3, b: 0.3 },
    displayName: { weight: 2, b: 0.3 },
    description: { weight: 1, b: 0.75 },
    data: { weight: 1.5, b: 0.5 },
    intentClass: { weight: 1, b: 0 },
  },
};

const NF = FIELDS.length;
/** Past every slot: the current slot of an exhausted posting cursor. */
const END = 0x7fffffff;
/**
 * A bound prunes only when it is below the threshold by more than this factor. Bounds and scores
 * are float sums taken in different orders, so a bound can round a few ulps under the score it
 * bounds; 1e-9 is orders of magnitude above that, and pruning less never changes a result.
 */
const SLACK = 1 + 1e-9;
const NO_WORDS = new Int32Array(0);
/** A list holding at least 1/DENSE of the slots (and MIN_DENSE postings) gets a bitmap. */
const DENSE = 128;
const MIN_DENSE = 32;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Slots per window of the document-at-a-time loop (a multiple of 32). */
const WINDOW = 1024;
const WORDS = WINDOW >> 5;
/** At most this many documents seed the top k before the pass (see `seed`). */
const MAX_SEEDS = 32;
/** Seeding pays off only when the pass has this many postings to go through. */
const SEED_MIN_POSTINGS = 1024;
/** Per posting list, this many of the largest contributions are kept (a first θ for k up to it). */
const TOP_G = 16;

const CLASS_TERMS: Partial<Record<IntentClass, string[]>> = {
  lookup: tokenize('read'),
  write: tokenize('write'),
  export: tokenize('export'),
  admin: tokenize('admin'),
  reporting: tokenize('report read'),
  analysis: tokenize('analyse read'),
};

/** Per-field term lists of one intention: the index's view of a document. */
export function documentFields(doc: IntentionDocument): Record<Field, string[]> {
  return {
    label: tokenize(doc.label),
    displayName: tokenize(doc.displayName, { prose: true }),
    description: tokenize(affirmativeSentences(doc.description), { prose: true }),
    // Paths, plus the data source name (`hubspot`, `stripe`), which tool names often carry. Field
    // names, so action verbs in them (`created_at`) are dropped: they must not permit an action.
    data: doc.dataElements.flatMap((d) => [...tokenize(d.path, { concepts: false }), ...tokenize(d.dataSourceId, { concepts: false })]),
    // The operator-declared kind of action, as the verb concept it implies (lookup → read).
    intentClass: CLASS_TERMS[doc.intentClass] ?? [],
  };
}

/**
 * The documents containing one term, sorted by slot (a search walks and skips them in slot
 * order), in parallel typed arrays: the slots, per-field frequencies (`tfs`, NF per posting),
 * and what a search reads per posting: the BM25F pseudo-frequency `xs` (field frequencies
 * length-normalised and weighted, before saturation) and `gs`, its saturation, with their
 * maximum and largest values (bounds). Those depend on the corpus statistics, which change with
 * every upsert and remove, so they are derived lazily: `version` says which index version they
 * belong to, and a search refreshes a stale list before reading it (one pass over the list), so
 * they are always exactly what the current statistics give. A dense list also gets a bitmap of
 * its slots, rebuilt on refresh.
 */
class PostingList {
  slots = new Int32Array(4);
  tfs = new Uint32Array(4 * NF);
  xs = new Float64Array(4);
  /** Per posting, (k1 + 1) · x / (x + k1): its contribution per unit of query-term weight (for bounds; scores use `xs`). */
  gs = new Float64Array(4);
  size = 0;
  /** Index version `xs`, `gs` and `maxG` belong to (-1: never computed). */
  version = -1;
  maxG = 0;
  /** The TOP_G largest `gs`, descending (as many as there are postings). */
  readonly topG = new Float64Array(TOP_G);
  /**
   * For a dense list (see `refresh`), a bitmap of its slots and, per 32-slot word, the number of
   * postings before it: membership and position of any slot in O(1), for probing candidates.
   * Empty for other lists.
   */
  bits = NO_WORDS;
  ranks = NO_WORDS;

  /** Position of `slot` from the bitmap (a dense list only), or -1. */
  rank(slot: number): number {
    const word = this.bits[slot >> 5]!;
    const bit = slot & 31;
    if (((word >>> bit) & 1) === 0) return -1;
    return this.ranks[slot >> 5]! + popcount(word & ((1 << bit) - 1));
  }

  /** Inserts `slot` (not yet in the list) at its sorted position; appends when it is the highest. */
  add(slot: number, tf: Uint32Array): void {
    if (this.size === this.slots.length) {
      const cap = this.size * 2;
      const slots = new Int32Array(cap);
      slots.set(this.slots);
      const tfs = new Uint32Array(cap * NF);
      tfs.set(this.tfs);
      this.slots = slots;
      this.tfs = tfs;
      this.xs = new Float64Array(cap);
      this.gs = new Float64Array(cap);
      this.version = -1;
    }
    let at = this.size;
    if (at > 0 && this.slots[at - 1]! > slot) {
      at = this.seek(0, slot);
      this.slots.copyWithin(at + 1, at, this.size);
      this.tfs.copyWithin((at + 1) * NF, at * NF, this.size * NF);
    }
    this.slots[at] = slot;
    this.tfs.set(tf, at * NF);
    this.size++;
  }

  delete(slot: number): void {
    const at = this.find(slot);
    if (at < 0) return;
    this.slots.copyWithin(at, at + 1, this.size);
    this.tfs.copyWithin(at * NF, (at + 1) * NF, this.size * NF);
    this.size--;
  }

  /** Position of `slot` in the arrays, or -1 (binary search). */
  find(slot: number): number {
    const at = this.seek(0, slot);
    return at < this.size && this.slots[at] === slot ? at : -1;
  }

  /**
   * First position ≥ `from` whose slot is ≥ `target` (`size` when none): galloping from `from`,
   * then binary search, so skipping d postings costs O(log d).
   */
  seek(from: number, target: number): number {
    const s = this.slots;
    const n = this.size;
    if (from >= n || s[from]! >= target) return from;
    let lo = from;
    let step = 1;
    let hi = from + 1;
    while (hi < n && s[hi]! < target) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi > n) hi = n;
    // s[lo] < target, and hi = n or s[hi] ≥ target.
    lo++;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

interface Entry {
  slot: number;
  doc: IntentionDocument;
  /** Field lengths in terms, FIELDS order. */
  lengths: number[];
  /** Distinct terms, to take the document out of its posting lists on remove. */
  terms: string[];
}

/** A query term with its weight (how much its source is trusted: tool name > arguments > chat). */
export interface QueryTerm {
  term: string;
  weight: number;
  /** Where the term came from (see the classifier's SOURCE_WEIGHTS); informational here. */
  source?: string;
}

export interface SearchHit {
  doc: IntentionDocument;
  score: number;
  /** Query terms found in the document, strongest contribution first. */
  matchedTerms: string[];
}

/**
 * Buffers one search works in, kept across searches (the index is used from one thread) so a
 * search allocates little beyond its hits. Per query term, indexed by scoring position t: its
 * list, weight, bound and cursor. Per top-k row: slot, score and the (t, contribution) pairs
 * that make up the score.
 */
class SearchScratch {
  lists: PostingList[] = [];
  terms: string[] = [];
  /** The same in query order, before sorting. */
  rawLists: PostingList[] = [];
  rawTerms: string[] = [];
  rawW = new Float64Array(16);
  w = new Float64Array(16);
  ub = new Float64Array(16);
  pos = new Int32Array(16);
  cur = new Int32Array(16);
  /** Term positions by ascending bound, and by postings per unit of bound (descending). */
  byUb = new Int32Array(16);
  byRatio = new Int32Array(16);
  /** The current split: essential terms, non-essential ones by ascending bound with the running sums of their bounds. */
  ess = new Int32Array(16);
  nonEss = new Int32Array(16);
  /** Per non-essential position, its list's bitmap (empty for a sparse list). */
  neBits: Int32Array[] = [];
  /** An all-zero bitmap at least as long as any list's ("no term" in the first bound). */
  zeros = new Int32Array(0);
  /** Slots scored before the pass (see `seed`), ascending. */
  readonly seeds = new Int32Array(MAX_SEEDS);
  seedCount = 0;
  prefix = new Float64Array(16);
  inNE = new Uint8Array(16);
  /** Per essential term, where its postings in the current window start. */
  from = new Int32Array(16);
  /** Per slot of the current window: summed essential contributions, and a bitmap of the slots hit. */
  readonly acc = new Float64Array(WINDOW);
  readonly hits = new Int32Array(WORDS);
  /** The last slot already considered. */
  done = -1;
  /** Query positions in scoring order (sort buffer). */
  order = new Int32Array(16);
  /** The current document's matched terms and contributions. */
  mT = new Int32Array(16);
  mP = new Int32Array(16);
  mC = new Float64Array(16);
  heap = new Int32Array(16);
  rowSlot = new Int32Array(16);
  rowScore = new Float64Array(16);
  rowCount = new Int32Array(16);
  rowT = new Int32Array(256);
  rowC = new Float64Array(256);
  rows = 0;
  theta = -Infinity;

  /** Room for `terms` query terms and `k` result rows. */
  reserve(terms: number, k: number): void {
    if (this.w.length < terms) {
      const n = Math.max(terms, this.w.length * 2);
      this.w = new Float64Array(n);
      this.ub = new Float64Array(n);
      this.pos = new Int32Array(n);
      this.cur = new Int32Array(n);
      this.byUb = new Int32Array(n);
      this.byRatio = new Int32Array(n);
      this.ess = new Int32Array(n);
      this.nonEss = new Int32Array(n);
      this.prefix = new Float64Array(n);
      this.inNE = new Uint8Array(n);
      this.from = new Int32Array(n);
      this.order = new Int32Array(n);
      this.rawW = new Float64Array(n);
      this.mT = new Int32Array(n);
      this.mP = new Int32Array(n);
      this.mC = new Float64Array(n);
    }
    if (this.heap.length < k) {
      const n = Math.max(k, this.heap.length * 2);
      this.heap = new Int32Array(n);
      this.rowSlot = new Int32Array(n);
      this.rowScore = new Float64Array(n);
      this.rowCount = new Int32Array(n);
    }
    if (this.rowT.length < terms * k) {
      const n = Math.max(terms * k, this.rowT.length * 2);
      this.rowT = new Int32Array(n);
      this.rowC = new Float64Array(n);
    }
  }
}

/**
 * Inverted index over intention documents with BM25F scoring.
 *
 * Cost model: a search touches only the posting lists of the query's terms, and of those walks
 * only the ones that can still lift a document into the top k (MaxScore, see `search`); the
 * others are only probed for the candidates those produce. Upsert and remove touch only the
 * document's own terms (an insert or delete in each sorted list), so publish/archive events
 * update it incrementally. Corpus statistics (document count, field length sums) are running
 * sums kept exact on every change; per-posting values derived from them are recomputed per
 * list, by the first search that reads the list after a change (so right after a change a
 * search costs about what an exhaustive one does, once per list).
 */
export class LexicalIndex {
  private readonly postings = new Map<string, PostingList>();
  private readonly slots: (Entry | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly lengthSums = new Float64Array(NF);
  /** Field lengths by slot (slot × NF + field), contiguous for the refresh loop. */
  private lengths = new Float64Array(64 * NF);
  /** Bumped by every change of the corpus: stales every list's `xs` and the norms. */
  private version = 0;
  private readonly normCache = new Float64Array(NF);
  private normVersion = -1;
  private readonly weights: Float64Array;
  private readonly bs: Float64Array;
  private readonly oneMinusB: Float64Array;
  private readonly k1: number;
  /**
   * Whether a term's contribution is nondecreasing in its pseudo-frequency and never negative,
   * so per-list maxima bound it. True for any sensible parameters (weights ≥ 0, 0 ≤ b ≤ 1,
   * k1 ≥ 0); otherwise every search scores every matching document.
   */
  private readonly prunable: boolean;
  private readonly scratch = new SearchScratch();

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

  get(id: string): IntentionDocument | undefined {
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

  private idfOf(documentFrequency: number): number {
    const n = this.byId.size;
    const df = Math.max(1, documentFrequency);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Adds or replaces one intention (by id). */
  upsert(doc: IntentionDocument): void {
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
    const entry: Entry = { slot, doc, lengths, terms: [...tf.keys()] };
    this.slots[slot] = entry;
    this.byId.set(doc.id, entry);
    this.version++;
  }

  /** Bulk load (the read model's initial fill, a bench's 10k synthetic intentions). */
  upsertMany(docs: Iterable<IntentionDocument>): void {
    for (const d of docs) this.upsert(d);
  }

  /** Keeps the index equal to the set of active intentions: upsert if active, else remove. */
  sync(doc: IntentionDocument): void {
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
   * Top-k intentions for the weighted query terms, best first (ties by label, then id, so
   * results are deterministic). Duplicate terms should already be merged by the caller.
   *
   * Exact document-at-a-time top-k with dynamic pruning (MaxScore). A document's score is the
   * sum of its terms' contributions; each term has an upper bound `ub` (weight × idf × the
   * list's largest saturated pseudo-frequency), and θ is a lower bound on the final k-th best
   * score: the largest k-th best single contribution of any term, then the k-th best score
   * found. Terms whose bounds together stay under θ are non-essential (a document holding only
   * those cannot make the top k); the lists of the others, the essential ones, are walked in
   * slot order, and every slot they hold is a candidate. A candidate is dropped as soon as what
   * it has plus the bounds of what it may still have falls below θ: first with the three
   * strongest non-essential terms counted only if their bitmaps hold it, then probing the
   * non-essential terms strongest first (bitmap, or a galloping skip in a sparse list). The
   * split is redone as θ rises, choosing among valid splits the one leaving the most postings
   * non-essential; θ is seeded by scoring a few documents that hold two of the strongest terms
   * first. See `maxScoreLoop`, `partition`, `seed`.
   *
   * A candidate that survives is scored exactly as an exhaustive term-at-a-time pass scores it:
   * contributions computed from `xs` with the same float operations and added in the same term
   * order (weight × idf descending, then shorter list first, then query order). So scores are
   * bit-for-bit those of scoring every document, and bounds only decide what is skipped, with a
   * relative margin (SLACK) far above float rounding.
   */
  search(query: readonly QueryTerm[], k: number): SearchHit[] {
    const n = this.byId.size;
    if (n === 0 || k <= 0) return [];
    const s = this.scratch;
    s.reserve(query.length, 1);

    // The query's indexed terms, in query order.
    let T = 0;
    for (let i = 0; i < query.length; i++) {
      const q = query[i]!;
      if (!(q.weight > 0)) continue;
      const list = this.postings.get(q.term);
      if (list === undefined) continue;
      s.rawLists[T] = list;
      s.rawTerms[T] = q.term;
      s.rawW[T] = q.weight * this.idfOf(list.size);
      s.order[T] = T;
      T++;
    }
    if (T === 0) return [];
    const kk = Math.min(k, n);
    s.reserve(T, kk);
    const { order, rawW, rawLists, rawTerms, lists, terms, w, ub, pos, cur, byUb, heap, rowSlot, rowScore, rowCount, rowT, rowC } = s;

    // Scoring order: weight × idf descending, then shorter list first, then query order (a
    // stable insertion sort with the comparator of the exhaustive pass).
    for (let i = 1; i < T; i++) {
      const o = order[i]!;
      let j = i;
      for (; j > 0; j--) {
        const p = order[j - 1]!;
        if ((rawW[p]! - rawW[o]! || rawLists[o]!.size - rawLists[p]!.size) >= 0) break;
        order[j] = p;
      }
      order[j] = o;
    }
    const norm = this.norms();
    for (let t = 0; t < T; t++) {
      const o = order[t]!;
      const list = rawLists[o]!;
      if (list.version !== this.version) this.refresh(list, norm);
      lists[t] = list;
      terms[t] = rawTerms[o]!;
      w[t] = rawW[o]!;
      ub[t] = w[t]! * list.maxG;
      pos[t] = 0;
      cur[t] = list.slots[0]!;
    }
    // Terms by ascending bound.
    for (let i = 0; i < T; i++) {
      let j = i;
      for (; j > 0 && ub[byUb[j - 1]!]! > ub[i]!; j--) byUb[j] = byUb[j - 1]!;
      byUb[j] = i;
    }
    // Terms by postings per unit of bound, descending (see `partition`).
    const { byRatio } = s;
    for (let i = 0; i < T; i++) {
      const r = lists[i]!.size / ub[i]!;
      let j = i;
      for (; j > 0 && lists[byRatio[j - 1]!]!.size / ub[byRatio[j - 1]!]! < r; j--) byRatio[j] = byRatio[j - 1]!;
      byRatio[j] = i;
    }

    // A first θ without scoring anything: a term's kk-th best contribution is a lower bound on
    // the kk-th best score (contributions are never negative).
    s.rows = 0;
    s.theta = -Infinity;
    if (this.prunable && kk <= TOP_G) {
      for (let t = 0; t < T; t++) {
        const list = lists[t]!;
        if (list.size >= kk) s.theta = Math.max(s.theta, (w[t]! * list.topG[kk - 1]!) / SLACK);
      }
    }
    s.seedCount = this.prunable ? this.seed(T, kk) : 0;
    this.maxScoreLoop(T, kk);
    const rows = s.rows;

    // Rows best first; each hit's matched terms strongest first (ties in scoring order).
    for (let i = 1; i < rows; i++) {
      const r = heap[i]!;
      let j = i;
      for (; j > 0 && this.worse(heap[j - 1]!, r); j--) heap[j] = heap[j - 1]!;
      heap[j] = r;
    }
    const hits: SearchHit[] = [];
    for (let i = 0; i < rows; i++) {
      const r = heap[i]!;
      const at = r * T;
      const m = rowCount[r]!;
      for (let a = 1; a < m; a++) {
        const t = rowT[at + a]!;
        const c = rowC[at + a]!;
        let j = a;
        for (; j > 0 && rowC[at + j - 1]! < c; j--) {
          rowT[at + j] = rowT[at + j - 1]!;
          rowC[at + j] = rowC[at + j - 1]!;
        }
        rowT[at + j] = t;
        rowC[at + j] = c;
      }
      const matchedTerms: string[] = new Array<string>(m);
      for (let a = 0; a < m; a++) matchedTerms[a] = terms[rowT[at + a]!]!;
      hits.push({ doc: this.slots[rowSlot[r]!]!.doc, score: rowScore[r]!, matchedTerms });
    }
    return hits;
  }

  /**
   * The document-at-a-time pass. Slots are taken in windows of WINDOW: the essential lists'
   * postings in the window are added into per-slot accumulators, with a bitmap of the slots hit
   * (a tight loop, without the unpredictable branches of a k-way merge), then the slots hit are
   * visited in order. Each is dropped by the first bound (what its essential terms give, plus
   * the three strongest non-essential terms if their bitmaps hold it, plus the bounds of the
   * rest), else probed for the non-essential terms strongest first while it can still reach θ;
   * a survivor gets its essential postings back and is scored exactly (`offer`). The split into
   * essential and non-essential terms is redone between windows when θ has risen.
   */
  private maxScoreLoop(T: number, kk: number): void {
    const s = this.scratch;
    const { lists, w, ub, pos, cur, ess, nonEss, neBits, prefix, mT, mP, acc, hits, from } = s;
    // An all-zero bitmap as long as any list's: stands for "no term" in the first bound below.
    const words = (this.slots.length + WINDOW + 31) >> 5;
    if (s.zeros.length < words) s.zeros = new Int32Array(words * 2);
    const zeros = s.zeros;
    // Bounds are compared with θ / SLACK: only a bound clearly under θ prunes.
    let bar = s.theta / SLACK;
    const { seeds, seedCount } = s;
    let seedAt = 0;
    s.done = -1;
    let ne = this.partition(T, bar, -1);
    let split = bar;
    for (;;) {
      if (bar !== split) {
        ne = this.partition(T, bar, s.done);
        split = bar;
      }
      const ec = T - ne;
      // For the first bound (see below): bitmaps and bounds of the three strongest non-essential
      // terms when dense, and the bounds of all the others.
      let quick = ne > 0 ? prefix[ne - 1]! : 0;
      let q1: Int32Array = zeros;
      let q2: Int32Array = zeros;
      let q3: Int32Array = zeros;
      let u1 = 0;
      let u2 = 0;
      let u3 = 0;
      if (ne > 0 && neBits[ne - 1]!.length > 0) {
        q1 = neBits[ne - 1]!;
        u1 = ub[nonEss[ne - 1]!]!;
        quick = ne > 1 ? prefix[ne - 2]! : 0;
        if (ne > 1 && neBits[ne - 2]!.length > 0) {
          q2 = neBits[ne - 2]!;
          u2 = ub[nonEss[ne - 2]!]!;
          quick = ne > 2 ? prefix[ne - 3]! : 0;
          if (ne > 2 && neBits[ne - 3]!.length > 0) {
            q3 = neBits[ne - 3]!;
            u3 = ub[nonEss[ne - 3]!]!;
            quick = ne > 3 ? prefix[ne - 4]! : 0;
          }
        }
      }
      let base = END;
      for (let j = 0; j < ec; j++) {
        const c = cur[ess[j]!]!;
        if (c < base) base = c;
      }
      if (base === END) break;
      base &= ~31;
      const end = base + WINDOW;
      // Essential postings of the window into the accumulators.
      for (let j = 0; j < ec; j++) {
        const t = ess[j]!;
        const list = lists[t]!;
        const { slots, gs, size } = list;
        const wt = w[t]!;
        let p = pos[t]!;
        from[j] = p;
        for (; p < size; p++) {
          const off = slots[p]! - base;
          if (off >= WINDOW) break;
          acc[off]! += wt * gs[p]!;
          hits[off >> 5]! |= 1 << (off & 31);
        }
        pos[t] = p;
        cur[t] = p < size ? slots[p]! : END;
      }
      s.done = end - 1;
      // The window's candidates in slot order.
      for (let word = 0; word < WORDS; word++) {
        let bits = hits[word]!;
        if (bits === 0) continue;
        hits[word] = 0;
        // A first bound without branching per term: the three strongest non-essential terms
        // counted only when the candidate is in them (when they have a bitmap).
        const gw = (base >> 5) + word;
        const w1 = q1[gw]!;
        const w2 = q2[gw]!;
        const w3 = q3[gw]!;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const bit = 31 - Math.clz32(low);
          const off = (word << 5) + bit;
          let partial = acc[off]!;
          acc[off] = 0;
          const bound = partial + quick + ((w1 >>> bit) & 1) * u1 + ((w2 >>> bit) & 1) * u2 + ((w3 >>> bit) & 1) * u3;
          if (bound < bar) continue;
          const d = base + off;
          let m = 0;
          let j = ne - 1;
          for (; j >= 0; j--) {
            if (partial + prefix[j]! < bar) break;
            const bitmap = neBits[j]!;
            if (bitmap.length > 0) {
              const bw = bitmap[d >> 5]!;
              if (((bw >>> (d & 31)) & 1) !== 0) {
                const t = nonEss[j]!;
                const list = lists[t]!;
                const p = list.ranks[d >> 5]! + popcount(bw & ((1 << (d & 31)) - 1));
                partial += w[t]! * list.gs[p]!;
                mT[m] = t;
                mP[m++] = p;
              }
              continue;
            }
            const t = nonEss[j]!;
            const list = lists[t]!;
            if (cur[t]! < d) {
              const p = list.seek(pos[t]!, d);
              pos[t] = p;
              cur[t] = p < list.size ? list.slots[p]! : END;
            }
            if (cur[t] === d) {
              const p = pos[t]!;
              partial += w[t]! * list.gs[p]!;
              mT[m] = t;
              mP[m++] = p;
              pos[t] = p + 1;
              cur[t] = p + 1 < list.size ? list.slots[p + 1]! : END;
            }
          }
          if (j >= 0 || partial < bar) continue;
          // Seeds were scored already (see `seed`).
          while (seedAt < seedCount && seeds[seedAt]! < d) seedAt++;
          if (seedAt < seedCount && seeds[seedAt] === d) continue;
          // A survivor: find its essential postings again (few survivors, so a skip each).
          for (let e = 0; e < ec; e++) {
            const list = lists[ess[e]!]!;
            let p: number;
            if (list.bits.length > 0) p = list.rank(d);
            else {
              p = list.seek(from[e]!, d);
              from[e] = p;
              if (p >= list.size || list.slots[p] !== d) p = -1;
            }
            if (p >= 0) {
              mT[m] = ess[e]!;
              mP[m++] = p;
            }
          }
          if (this.offer(d, m, T, kk)) bar = s.theta / SLACK;
        }
      }
    }
  }

  /**
   * Seeds the top k before the document-at-a-time pass, so that θ starts near its final value
   * instead of rising slowly as slots go by (the best intentions are spread over all slots).
   * When the query's lists are long, the documents holding two of its three strongest terms,
   * at most 2k (and MAX_SEEDS) of them, are scored exactly and offered. Their slots, ascending,
   * stay in `seeds` so the pass skips them. Returns how many there are.
   */
  private seed(T: number, kk: number): number {
    const s = this.scratch;
    const { lists, byUb, seeds, mT, mP } = s;
    if (T < 2) return 0;
    let postings = 0;
    for (let t = 0; t < T; t++) postings += lists[t]!.size;
    if (postings < SEED_MIN_POSTINGS) return 0;
    const limit = Math.min(MAX_SEEDS, 2 * kk);
    let count = 0;
    const top = Math.min(T, 3);
    for (let a = 0; a < top && count < limit; a++) {
      for (let b = a + 1; b < top && count < limit; b++) {
        let x = lists[byUb[T - 1 - a]!]!;
        let y = lists[byUb[T - 1 - b]!]!;
        if (x === y) continue;
        if (y.size < x.size) [x, y] = [y, x];
        // Walk the shorter list, look each slot up in the longer one.
        for (let p = 0; p < x.size && count < limit; p++) {
          const d = x.slots[p]!;
          if ((y.bits.length > 0 ? y.rank(d) : y.find(d)) >= 0) seeds[count++] = d;
        }
      }
    }
    if (count === 0) return 0;
    // Ascending, without duplicates.
    for (let i = 1; i < count; i++) {
      const d = seeds[i]!;
      let j = i;
      for (; j > 0 && seeds[j - 1]! > d; j--) seeds[j] = seeds[j - 1]!;
      seeds[j] = d;
    }
    let n = 0;
    for (let i = 0; i < count; i++) if (n === 0 || seeds[n - 1] !== seeds[i]) seeds[n++] = seeds[i]!;
    for (let i = 0; i < n; i++) {
      const d = seeds[i]!;
      let m = 0;
      for (let t = 0; t < T; t++) {
        const list = lists[t]!;
        const p = list.bits.length > 0 ? list.rank(d) : list.find(d);
        if (p >= 0) {
          mT[m] = t;
          mP[m++] = p;
        }
      }
      this.offer(d, m, T, kk);
    }
    return n;
  }

  /**
   * Splits the terms for threshold `bar`: non-essential terms (returned count, in `nonEss` by
   * ascending bound with running sums in `prefix`) have bounds summing under `bar`; the rest go
   * to `ess`. Any such split is exact, and the work is about the total length of the essential
   * lists, so the split that leaves the most postings non-essential is wanted (a knapsack):
   * the better of taking terms by ascending bound and by postings per unit of bound (`byRatio`).
   * Lists that become essential are moved past `done`, the last slot already considered (a slot
   * passed while they were non-essential could not reach θ).
   */
  private partition(T: number, bar: number, done: number): number {
    const s = this.scratch;
    const { lists, ub, byUb, byRatio, inNE, ess, nonEss, prefix, pos, cur } = s;
    if (!(bar > 0)) {
      for (let i = 0; i < T; i++) ess[i] = i;
      return 0;
    }
    // By ascending bound.
    let sumA = 0;
    let dfA = 0;
    for (let i = 0; i < T; i++) {
      const t = byUb[i]!;
      if (sumA + ub[t]! >= bar) break;
      sumA += ub[t]!;
      dfA += lists[t]!.size;
    }
    // By postings per unit of bound, skipping what does not fit.
    let sumB = 0;
    let dfB = 0;
    for (let i = 0; i < T; i++) {
      const t = byRatio[i]!;
      if (sumB + ub[t]! < bar) {
        sumB += ub[t]!;
        dfB += lists[t]!.size;
        inNE[t] = 1;
      } else inNE[t] = 0;
    }
    if (dfA >= dfB) {
      inNE.fill(0, 0, T);
      for (let i = 0, sum = 0; i < T; i++) {
        const t = byUb[i]!;
        if (sum + ub[t]! >= bar) break;
        sum += ub[t]!;
        inNE[t] = 1;
      }
    }
    let ne = 0;
    let ec = 0;
    for (let i = 0, sum = 0; i < T; i++) {
      const t = byUb[i]!;
      if (inNE[t] === 1) {
        s.neBits[ne] = lists[t]!.bits;
        nonEss[ne] = t;
        prefix[ne++] = sum += ub[t]!;
      } else {
        ess[ec++] = t;
        if (cur[t]! <= done) {
          const list = lists[t]!;
          const p = list.seek(pos[t]!, done + 1);
          pos[t] = p;
          cur[t] = p < list.size ? list.slots[p]! : END;
        }
      }
    }
    return ne;
  }

  /**
   * Scores the candidate matched by terms mT at positions mP (m of them) exactly, and keeps it if
   * it ranks among the best kk. True when θ (the k-th best score, once kk rows are held) rose.
   */
  private offer(d: number, m: number, T: number, kk: number): boolean {
    const s = this.scratch;
    const { lists, w, mT, mP, mC, heap, rowSlot, rowScore, rowCount, rowT, rowC } = s;
    const k1 = this.k1;
    const k1p1 = k1 + 1;
    // The exact score: each contribution computed as the exhaustive pass computes it, added in
    // scoring order.
    for (let i = 1; i < m; i++) {
      const t = mT[i]!;
      const p = mP[i]!;
      let j = i;
      for (; j > 0 && mT[j - 1]! > t; j--) {
        mT[j] = mT[j - 1]!;
        mP[j] = mP[j - 1]!;
      }
      mT[j] = t;
      mP[j] = p;
    }
    let score = 0;
    for (let i = 0; i < m; i++) {
      const t = mT[i]!;
      const x = lists[t]!.xs[mP[i]!]!;
      score += mC[i] = (w[t]! * x * k1p1) / (x + k1);
    }
    const fresh = s.rows < kk;
    let row = s.rows;
    if (!fresh) {
      row = heap[0]!;
      const least = rowScore[row]!;
      if (!(score > least || (score === least && this.tieBefore(d, rowSlot[row]!)))) return false;
    }
    rowSlot[row] = d;
    rowScore[row] = score;
    rowCount[row] = m;
    for (let i = 0, at = row * T; i < m; i++) {
      rowT[at + i] = mT[i]!;
      rowC[at + i] = mC[i]!;
    }
    if (fresh) {
      heap[s.rows] = row;
      this.siftUp(s.rows++);
    } else this.siftDown(s.rows);
    if (s.rows < kk || !this.prunable || !(rowScore[heap[0]!]! > s.theta)) return false;
    s.theta = rowScore[heap[0]!]!;
    return true;
  }

  /** Whether a document in slot `a` ranks before one in slot `b` at equal score: label, then id. */
  private tieBefore(a: number, b: number): boolean {
    const da = this.slots[a]!.doc;
    const db = this.slots[b]!.doc;
    return da.label < db.label || (da.label === db.label && da.id < db.id);
  }

  /** Whether top-k row `a` ranks below row `b`. */
  private worse(a: number, b: number): boolean {
    const { rowScore, rowSlot } = this.scratch;
    const sa = rowScore[a]!;
    const sb = rowScore[b]!;
    return sa < sb || (sa === sb && this.tieBefore(rowSlot[b]!, rowSlot[a]!));
  }

  private siftUp(at: number): void {
    const heap = this.scratch.heap;
    const row = heap[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.worse(row, heap[parent]!)) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = row;
  }

  private siftDown(size: number): void {
    const heap = this.scratch.heap;
    const row = heap[0]!;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && this.worse(heap[child + 1]!, heap[child]!)) child++;
      if (!this.worse(heap[child]!, row)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = row;
  }

  /**
   * Recomputes a list's per-posting values for the current corpus statistics: the pseudo-
   * frequency x (field frequencies length-normalised and weighted; `norm` holds, per field,
   * b × N / Σ lengths, see `norms`), computed with the same float operations in the same order
   * as the exhaustive pass; its saturation g, their maximum and largest values; and, for a list
   * holding at least 1/DENSE of the slots, the bitmap of its slots with per-word ranks.
   */
  private refresh(list: PostingList, norm: Float64Array): void {
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
  private norms(): Float64Array {
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
