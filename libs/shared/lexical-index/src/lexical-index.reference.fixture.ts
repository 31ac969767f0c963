// TEST-ONLY reference: the term-at-a-time LexicalIndex as it was before the document-at-a-time
// MaxScore search (git 2f05f4f), kept verbatim apart from its name; the unchanged parts it shares
// (types, fields, `documentFields`, DEFAULT_BM25, and the document store: slots, statistics,
// upsert/remove) come from the lib, so what is compared is the search. The
// differential specs (lexical-index.differential.spec.ts) check that LexicalIndex returns
// exactly what this returns. Not exported from the barrel; nothing but specs may import it.
import { FIELDS, type QueryTerm, type SearchHit } from './document';
import { DocumentStore } from './document-store';

const NF = FIELDS.length;
/** Posting lists at most this long are walked in full; pruning is checked only before longer ones. */
const PRUNE_MIN_LIST = 256;

/**
 * The documents containing one term, with their per-field frequencies, in parallel typed
 * arrays (scanned in a tight loop) plus a slot → position map for O(1) lookup and
 * swap-remove.
 */
class PostingList {
  slots = new Int32Array(4);
  tfs = new Float64Array(4 * NF);
  size = 0;
  private readonly positions = new Map<number, number>();

  add(slot: number, tf: Uint32Array): void {
    if (this.size === this.slots.length) {
      const slots = new Int32Array(this.size * 2);
      slots.set(this.slots);
      const tfs = new Float64Array(this.size * 2 * NF);
      tfs.set(this.tfs);
      this.slots = slots;
      this.tfs = tfs;
    }
    this.slots[this.size] = slot;
    this.tfs.set(tf, this.size * NF);
    this.positions.set(slot, this.size++);
  }

  delete(slot: number): void {
    const at = this.positions.get(slot);
    if (at === undefined) return;
    const last = --this.size;
    if (at !== last) {
      const moved = this.slots[last]!;
      this.slots[at] = moved;
      this.tfs.copyWithin(at * NF, last * NF, last * NF + NF);
      this.positions.set(moved, at);
    }
    this.positions.delete(slot);
  }

  /** Position of `slot` in the arrays, or -1. */
  find(slot: number): number {
    return this.positions.get(slot) ?? -1;
  }
}

/**
 * Inverted index over intention documents with BM25F scoring.
 *
 * Cost model: a search touches only the posting lists of the query's terms, so it grows with
 * how many intentions share those terms, not with the size of the corpus. Upsert and remove
 * touch only the document's own terms, so publish/archive events update it incrementally.
 * Corpus statistics (document count, average field lengths) are running sums kept exact on
 * every change.
 */
export class ReferenceLexicalIndex extends DocumentStore<string, PostingList> {
  private scratchSpace = { scores: new Float64Array(0), epochs: new Uint32Array(0), touched: new Int32Array(0) };
  private epoch = 0;

  protected newPostings(): PostingList {
    return new PostingList();
  }

  /**
   * Top-k intentions for the weighted query terms, best first (ties by label, so results are
   * deterministic). Duplicate terms should already be merged by the caller.
   *
   * Exact top-k with MaxScore-style pruning: terms are taken rarest first (highest bound
   * weight × idf × (k1 + 1) first); once the bounds of all remaining terms together cannot lift
   * a document not yet seen above the current k-th score, those terms only update documents
   * already seen (min(list, seen) work) instead of walking their long posting lists. So a
   * common word such as `read` costs little once a rarer word has found the candidates.
   */
  search(query: readonly QueryTerm[], k: number): SearchHit[] {
    const n = this.byId.size;
    if (n === 0 || k <= 0) return [];
    const terms: { term: string; list: PostingList; w: number }[] = [];
    for (const q of query) {
      if (!(q.weight > 0)) continue;
      const list = this.postings.get(q.term);
      if (list !== undefined) terms.push({ term: q.term, list, w: q.weight * this.idfOf(list.size) });
    }
    terms.sort((a, b) => b.w - a.w || a.list.size - b.list.size);
    const k1 = this.params.k1;
    const remaining: number[] = [];
    for (let i = terms.length - 1, sum = 0; i >= 0; i--) remaining[i] = sum += terms[i]!.w * (k1 + 1);

    const norm = this.norms();
    const scratch = this.scratch(this.slots.length);
    if (this.epoch === 0xffffffff) {
      scratch.epochs.fill(0);
      this.epoch = 0;
    }
    const epoch = ++this.epoch;
    let seen = 0;
    let open = true; // may new documents still enter the top k?
    for (let t = 0; t < terms.length; t++) {
      const { list, w } = terms[t]!;
      // The k-th score costs a pass over the seen documents: worth it only before a long list.
      if (open && seen >= k && list.size > PRUNE_MIN_LIST && remaining[t]! < kthLargest(scratch.scores, scratch.touched, seen, k)) open = false;
      const { slots, tfs } = list;
      if (open) {
        for (let p = 0; p < list.size; p++) {
          const slot = slots[p]!;
          if (scratch.epochs[slot] !== epoch) {
            scratch.epochs[slot] = epoch;
            scratch.scores[slot] = 0;
            scratch.touched[seen++] = slot;
          }
          scratch.scores[slot]! += this.contribution(slot, tfs, p * NF, w, norm);
        }
      } else if (list.size <= seen) {
        for (let p = 0; p < list.size; p++) {
          const slot = slots[p]!;
          if (scratch.epochs[slot] === epoch) scratch.scores[slot]! += this.contribution(slot, tfs, p * NF, w, norm);
        }
      } else {
        for (let i = 0; i < seen; i++) {
          const slot = scratch.touched[i]!;
          const p = list.find(slot);
          if (p >= 0) scratch.scores[slot]! += this.contribution(slot, tfs, p * NF, w, norm);
        }
      }
    }

    const top: { slot: number; score: number; label: string }[] = [];
    for (let i = 0; i < seen; i++) {
      const slot = scratch.touched[i]!;
      const score = scratch.scores[slot]!;
      if (top.length === k && score < top[k - 1]!.score) continue;
      const label = this.slots[slot]!.doc.label;
      if (top.length === k && !better(score, label, top[k - 1]!)) continue;
      let j = top.length === k ? k - 1 : top.length;
      top[j] = { slot, score, label };
      while (j > 0 && better(top[j]!.score, top[j]!.label, top[j - 1]!)) {
        [top[j], top[j - 1]] = [top[j - 1]!, top[j]!];
        j--;
      }
    }
    // Matched terms only for the few documents returned.
    const hits: SearchHit[] = [];
    for (const { slot, score } of top) {
      const matched: { term: string; c: number }[] = [];
      for (const { term, list, w } of terms) {
        const p = list.find(slot);
        if (p >= 0) matched.push({ term, c: this.contribution(slot, list.tfs, p * NF, w, norm) });
      }
      matched.sort((a, b) => b.c - a.c);
      hits.push({ doc: this.slots[slot]!.doc, score, matchedTerms: matched.map((m) => m.term) });
    }
    return hits;
  }

  /**
   * One term's BM25F contribution to one document: field frequencies length-normalised and
   * weighted, then saturated once. `norm` holds, per field, b × N / Σ lengths (see `norms`).
   */
  private contribution(slot: number, tfs: Float64Array, at: number, w: number, norm: Float64Array): number {
    const base = slot * NF;
    let x = 0;
    for (let i = 0; i < NF; i++) {
      const f = tfs[at + i]!;
      if (f !== 0) x += (this.weights[i]! * f) / (this.oneMinusB[i]! + norm[i]! * this.lengths[base + i]!);
    }
    const k1 = this.params.k1;
    return (w * x * (k1 + 1)) / (x + k1);
  }

  /** Per-slot accumulators reused across searches (an epoch marks what this search touched). */
  private scratch(size: number): { scores: Float64Array; epochs: Uint32Array; touched: Int32Array } {
    if (this.scratchSpace.scores.length < size) {
      const cap = Math.max(size, this.scratchSpace.scores.length * 2);
      this.scratchSpace = { scores: new Float64Array(cap), epochs: new Uint32Array(cap), touched: new Int32Array(cap) };
      this.epoch = 0;
    }
    return this.scratchSpace;
  }
}

/** k-th largest accumulated score among the touched documents (k ≤ count). */
function kthLargest(scores: Float64Array, touched: Int32Array, count: number, k: number): number {
  const best: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = scores[touched[i]!]!;
    if (best.length === k && s <= best[k - 1]!) continue;
    let j = best.length === k ? k - 1 : best.length;
    best[j] = s;
    while (j > 0 && best[j]! > best[j - 1]!) {
      [best[j], best[j - 1]] = [best[j - 1]!, best[j]!];
      j--;
    }
  }
  return best[k - 1] ?? 0;
}

function better(score: number, label: string, than: { score: number; label: string }): boolean {
  return score > than.score || (score === than.score && label < than.label);
}
