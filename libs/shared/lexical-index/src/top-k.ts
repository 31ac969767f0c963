import { LexicalCorpus } from './corpus';
import { END, listAt, MAX_SEEDS, MISSING, SEED_MIN_POSTINGS } from './postings';

/**
 * The top-k bookkeeping of a search: seeding θ, splitting terms into essential and
 * non-essential ones, and the heap of the best rows (see `LexicalIndex.search`).
 */
export abstract class TopKCorpus<L extends string = string> extends LexicalCorpus<L> {
  /**
   * Seeds the top k before the document-at-a-time pass, so that θ starts near its final value
   * instead of rising slowly as slots go by (the best intentions are spread over all slots).
   * When the query's lists are long, the documents holding two of its three strongest terms,
   * at most 2k (and MAX_SEEDS) of them, are scored exactly and offered. Their slots, ascending,
   * stay in `seeds` so the pass skips them. Returns how many there are.
   */
  protected seed(T: number, kk: number): number {
    const s = this.scratch;
    const { lists, byUb, seeds, mT, mP } = s;
    if (T < 2) return 0;
    let postings = 0;
    for (let t = 0; t < T; t++) postings += listAt(lists, t).size;
    if (postings < SEED_MIN_POSTINGS) return 0;
    const limit = Math.min(MAX_SEEDS, 2 * kk);
    let count = 0;
    const top = Math.min(T, 3);
    for (let a = 0; a < top && count < limit; a++) {
      for (let b = a + 1; b < top && count < limit; b++) {
        let x = listAt(lists, byUb[T - 1 - a] ?? 0);
        let y = listAt(lists, byUb[T - 1 - b] ?? 0);
        if (x === y) continue;
        if (y.size < x.size) [x, y] = [y, x];
        // Walk the shorter list, look each slot up in the longer one.
        for (let p = 0; p < x.size && count < limit; p++) {
          const d = x.slots[p] ?? 0;
          if ((y.bits.length > 0 ? y.rank(d) : y.find(d)) >= 0) seeds[count++] = d;
        }
      }
    }
    if (count === 0) return 0;
    // Ascending, without duplicates.
    for (let i = 1; i < count; i++) {
      const d = seeds[i] ?? 0;
      let j = i;
      for (; j > 0 && (seeds[j - 1] ?? 0) > d; j--) seeds[j] = seeds[j - 1] ?? 0;
      seeds[j] = d;
    }
    let n = 0;
    for (let i = 0; i < count; i++) if (n === 0 || seeds[n - 1] !== seeds[i]) seeds[n++] = seeds[i] ?? 0;
    for (let i = 0; i < n; i++) {
      const d = seeds[i] ?? 0;
      let m = 0;
      for (let t = 0; t < T; t++) {
        const list = listAt(lists, t);
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
  protected partition(T: number, bar: number, done: number): number {
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
      const t = byUb[i] ?? 0;
      if (sumA + (ub[t] ?? 0) >= bar) break;
      sumA += ub[t] ?? 0;
      dfA += listAt(lists, t).size;
    }
    // By postings per unit of bound, skipping what does not fit.
    let sumB = 0;
    let dfB = 0;
    for (let i = 0; i < T; i++) {
      const t = byRatio[i] ?? 0;
      if (sumB + (ub[t] ?? 0) < bar) {
        sumB += ub[t] ?? 0;
        dfB += listAt(lists, t).size;
        inNE[t] = 1;
      } else inNE[t] = 0;
    }
    if (dfA >= dfB) {
      inNE.fill(0, 0, T);
      for (let i = 0, sum = 0; i < T; i++) {
        const t = byUb[i] ?? 0;
        if (sum + (ub[t] ?? 0) >= bar) break;
        sum += ub[t] ?? 0;
        inNE[t] = 1;
      }
    }
    let ne = 0;
    let ec = 0;
    for (let i = 0, sum = 0; i < T; i++) {
      const t = byUb[i] ?? 0;
      const list = listAt(lists, t);
      if (inNE[t] === 1) {
        s.neBits[ne] = list.bits;
        nonEss[ne] = t;
        prefix[ne++] = sum += ub[t] ?? 0;
      } else {
        ess[ec++] = t;
        if ((cur[t] ?? 0) <= done) {
          const p = list.seek(pos[t] ?? 0, done + 1);
          pos[t] = p;
          cur[t] = p < list.size ? (list.slots[p] ?? 0) : END;
        }
      }
    }
    return ne;
  }

  /**
   * Scores the candidate matched by terms mT at positions mP (m of them) exactly, and keeps it if
   * it ranks among the best kk. True when θ (the k-th best score, once kk rows are held) rose.
   */
  protected offer(d: number, m: number, T: number, kk: number): boolean {
    const s = this.scratch;
    const { lists, w, mT, mP, mC, heap, rowSlot, rowScore, rowCount, rowT, rowC } = s;
    const k1 = this.k1;
    const k1p1 = k1 + 1;
    // The exact score: each contribution computed as the exhaustive pass computes it, added in
    // scoring order.
    for (let i = 1; i < m; i++) {
      const t = mT[i] ?? 0;
      const p = mP[i] ?? 0;
      let j = i;
      for (; j > 0 && (mT[j - 1] ?? 0) > t; j--) {
        mT[j] = mT[j - 1] ?? 0;
        mP[j] = mP[j - 1] ?? 0;
      }
      mT[j] = t;
      mP[j] = p;
    }
    let score = 0;
    for (let i = 0; i < m; i++) {
      const t = mT[i] ?? 0;
      const list = lists[t];
      if (list === undefined) throw new Error(MISSING);
      const x = list.xs[mP[i] ?? 0] ?? 0;
      score += mC[i] = ((w[t] ?? 0) * x * k1p1) / (x + k1);
    }
    const fresh = s.rows < kk;
    let row = s.rows;
    if (!fresh) {
      row = heap[0] ?? 0;
      const least = rowScore[row] ?? 0;
      if (!(score > least || (score === least && this.tieBefore(d, rowSlot[row] ?? 0)))) return false;
    }
    rowSlot[row] = d;
    rowScore[row] = score;
    rowCount[row] = m;
    for (let i = 0, at = row * T; i < m; i++) {
      rowT[at + i] = mT[i] ?? 0;
      rowC[at + i] = mC[i] ?? 0;
    }
    if (fresh) {
      heap[s.rows] = row;
      this.siftUp(s.rows++);
    } else this.siftDown(s.rows);
    if (s.rows < kk || !this.prunable || !((rowScore[heap[0] ?? 0] ?? 0) > s.theta)) return false;
    s.theta = rowScore[heap[0] ?? 0] ?? 0;
    return true;
  }

  /** Whether a document in slot `a` ranks before one in slot `b` at equal score: label, then id. */
  protected tieBefore(a: number, b: number): boolean {
    const sa = this.slots[a];
    const sb = this.slots[b];
    if (sa === undefined || sb === undefined) throw new Error(MISSING);
    const da = sa.doc;
    const db = sb.doc;
    return da.label < db.label || (da.label === db.label && da.id < db.id);
  }

  /** Whether top-k row `a` ranks below row `b`. */
  protected worse(a: number, b: number): boolean {
    const { rowScore, rowSlot } = this.scratch;
    const sa = rowScore[a] ?? 0;
    const sb = rowScore[b] ?? 0;
    return sa < sb || (sa === sb && this.tieBefore(rowSlot[b] ?? 0, rowSlot[a] ?? 0));
  }

  protected siftUp(at: number): void {
    const heap = this.scratch.heap;
    const row = heap[at] ?? 0;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.worse(row, heap[parent] ?? 0)) break;
      heap[at] = heap[parent] ?? 0;
      at = parent;
    }
    heap[at] = row;
  }

  protected siftDown(size: number): void {
    const heap = this.scratch.heap;
    const row = heap[0] ?? 0;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && this.worse(heap[child + 1] ?? 0, heap[child] ?? 0)) child++;
      if (!this.worse(heap[child] ?? 0, row)) break;
      heap[at] = heap[child] ?? 0;
      at = child;
    }
    heap[at] = row;
  }
}
