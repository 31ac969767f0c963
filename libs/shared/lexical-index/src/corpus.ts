import type { Bm25Params } from './document';
import { DocumentStore } from './document-store';
import { DENSE, MIN_DENSE, NF, NO_WORDS, popcount, PostingList, TOP_G } from './postings';
import { SearchScratch } from './search-scratch';

/**
 * The corpus side of the index: the document store over sorted posting lists, plus the
 * per-list values a search derives from the statistics (`refresh`). Searching is in the
 * subclasses (top-k bookkeeping in `TopKCorpus`, the MaxScore pass in `LexicalIndex`).
 */
export abstract class LexicalCorpus<L extends string = string> extends DocumentStore<L, PostingList> {
  protected readonly k1: number;
  /**
   * Whether a term's contribution is nondecreasing in its pseudo-frequency and never negative,
   * so per-list maxima bound it. True for any sensible parameters (weights ≥ 0, 0 ≤ b ≤ 1,
   * k1 ≥ 0); otherwise every search scores every matching document.
   */
  protected readonly prunable: boolean;
  protected readonly scratch = new SearchScratch();

  constructor(params?: Bm25Params) {
    super(params);
    this.k1 = this.params.k1;
    this.prunable = this.k1 >= 0 && this.weights.every((w) => w >= 0) && this.bs.every((b) => b >= 0 && b <= 1);
  }

  protected newPostings(): PostingList {
    return new PostingList();
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
      const base = (slots[p] ?? 0) * NF;
      const at = p * NF;
      let x = 0;
      for (let i = 0; i < NF; i++) {
        const f = tfs[at + i] ?? 0;
        if (f !== 0) x += ((weights[i] ?? 0) * f) / ((oneMinusB[i] ?? 0) + (norm[i] ?? 0) * (lengths[base + i] ?? 0));
      }
      xs[p] = x;
      const g = (k1p1 * x) / (x + k1);
      gs[p] = g;
      if (g > max) max = g;
      if (p < TOP_G || g > (top[TOP_G - 1] ?? 0)) {
        let j = Math.min(p, TOP_G - 1);
        for (; j > 0 && (top[j - 1] ?? 0) < g; j--) top[j] = top[j - 1] ?? 0;
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
      for (let p = 0; p < size; p++) {
        const d = slots[p] ?? 0;
        bits[d >> 5] = (bits[d >> 5] ?? 0) | (1 << (d & 31));
      }
      for (let i = 0, r = 0; i < bits.length; i++) {
        list.ranks[i] = r;
        r += popcount(bits[i] ?? 0);
      }
    } else if (list.bits.length > 0) {
      list.bits = NO_WORDS;
      list.ranks = NO_WORDS;
    }
  }
}
