import { MAX_SEEDS, PostingList, WINDOW, WORDS } from './postings';

/**
 * Buffers one search works in, kept across searches (the index is used from one thread) so a
 * search allocates little beyond its hits. Per query term, indexed by scoring position t: its
 * list, weight, bound and cursor. Per top-k row: slot, score and the (t, contribution) pairs
 * that make up the score.
 */
export class SearchScratch {
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
