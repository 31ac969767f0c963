import { FIELDS } from './document';

export const NF = FIELDS.length;
/** Past every slot: the current slot of an exhausted posting cursor. */
export const END = 0x7fffffff;
/**
 * A bound prunes only when it is below the threshold by more than this factor. Bounds and scores
 * are float sums taken in different orders, so a bound can round a few ulps under the score it
 * bounds; 1e-9 is orders of magnitude above that, and pruning less never changes a result.
 */
export const SLACK = 1 + 1e-9;
export const NO_WORDS = new Int32Array(0);
/** A list holding at least 1/DENSE of the slots (and MIN_DENSE postings) gets a bitmap. */
export const DENSE = 128;
export const MIN_DENSE = 32;

/** The message of a broken search-buffer invariant (an entry the code filled is missing). */
export const MISSING = 'internal invariant broken: a search buffer entry is missing';

/** `lists[t]`, which the search filled for every t it reads (outside the innermost loops). */
export function listAt(lists: readonly PostingList[], t: number): PostingList {
  const list = lists[t];
  if (list === undefined) throw new Error(MISSING);
  return list;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Slots per window of the document-at-a-time loop (a multiple of 32). */
export const WINDOW = 1024;
export const WORDS = WINDOW >> 5;
/** At most this many documents seed the top k before the pass (see `seed`). */
export const MAX_SEEDS = 32;
/** Seeding pays off only when the pass has this many postings to go through. */
export const SEED_MIN_POSTINGS = 1024;
/** Per posting list, this many of the largest contributions are kept (a first θ for k up to it). */
export const TOP_G = 16;

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
export class PostingList {
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
    const word = this.bits[slot >> 5] ?? 0;
    const bit = slot & 31;
    if (((word >>> bit) & 1) === 0) return -1;
    return (this.ranks[slot >> 5] ?? 0) + popcount(word & ((1 << bit) - 1));
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
    if (at > 0 && (this.slots[at - 1] ?? 0) > slot) {
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
    if (from >= n || (s[from] ?? 0) >= target) return from;
    let lo = from;
    let step = 1;
    let hi = from + 1;
    while (hi < n && (s[hi] ?? 0) < target) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi > n) hi = n;
    // s[lo] < target, and hi = n or s[hi] ≥ target.
    lo++;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((s[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
