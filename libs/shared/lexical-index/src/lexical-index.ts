import type { QueryTerm, SearchHit } from './document';
import { END, listAt, MISSING, popcount, SLACK, TOP_G, WINDOW, WORDS } from './postings';
import { TopKCorpus } from './top-k';

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
export class LexicalIndex<L extends string = string> extends TopKCorpus<L> {
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
  /**
   * What `term` contributes to intention `id`'s score per unit of query weight (idf × saturated
   * pseudo-frequency), 0 when the intention does not hold it: the classifier's per-source view
   * of a hit (how much of it the tool name explains, how much the arguments).
   */
  termScore(id: string, term: string): number {
    const entry = this.byId.get(id);
    const list = this.postings.get(term);
    if (entry === undefined || list === undefined) return 0;
    const p = list.find(entry.slot);
    if (p < 0) return 0;
    if (list.version !== this.version) this.refresh(list, this.norms());
    return this.idfOf(list.size) * (list.gs[p] ?? 0);
  }

  search(query: readonly QueryTerm[], k: number): SearchHit<L>[] {
    const n = this.byId.size;
    if (n === 0 || k <= 0) return [];
    const s = this.scratch;
    s.reserve(query.length, 1);

    // The query's indexed terms, in query order.
    let T = 0;
    for (const q of query) {
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
      const o = order[i] ?? 0;
      let j = i;
      for (; j > 0; j--) {
        const p = order[j - 1] ?? 0;
        const lo = rawLists[o];
        const lp = rawLists[p];
        if (lo === undefined || lp === undefined) throw new Error(MISSING);
        if (((rawW[p] ?? 0) - (rawW[o] ?? 0) || lo.size - lp.size) >= 0) break;
        order[j] = p;
      }
      order[j] = o;
    }
    const norm = this.norms();
    for (let t = 0; t < T; t++) {
      const o = order[t] ?? 0;
      const list = rawLists[o];
      const term = rawTerms[o];
      if (list === undefined || term === undefined) throw new Error(MISSING);
      if (list.version !== this.version) this.refresh(list, norm);
      lists[t] = list;
      terms[t] = term;
      w[t] = rawW[o] ?? 0;
      ub[t] = (w[t] ?? 0) * list.maxG;
      pos[t] = 0;
      cur[t] = list.slots[0] ?? 0;
    }
    // Terms by ascending bound.
    for (let i = 0; i < T; i++) {
      let j = i;
      for (; j > 0 && (ub[byUb[j - 1] ?? 0] ?? 0) > (ub[i] ?? 0); j--) byUb[j] = byUb[j - 1] ?? 0;
      byUb[j] = i;
    }
    // Terms by postings per unit of bound, descending (see `partition`).
    const { byRatio } = s;
    for (let i = 0; i < T; i++) {
      const r = listAt(lists, i).size / (ub[i] ?? 0);
      let j = i;
      for (; j > 0 && listAt(lists, byRatio[j - 1] ?? 0).size / (ub[byRatio[j - 1] ?? 0] ?? 0) < r; j--) byRatio[j] = byRatio[j - 1] ?? 0;
      byRatio[j] = i;
    }

    // A first θ without scoring anything: a term's kk-th best contribution is a lower bound on
    // the kk-th best score (contributions are never negative).
    s.rows = 0;
    s.theta = -Infinity;
    if (this.prunable && kk <= TOP_G) {
      for (let t = 0; t < T; t++) {
        const list = lists[t];
        if (list === undefined) throw new Error(MISSING);
        if (list.size >= kk) s.theta = Math.max(s.theta, ((w[t] ?? 0) * (list.topG[kk - 1] ?? 0)) / SLACK);
      }
    }
    s.seedCount = this.prunable ? this.seed(T, kk) : 0;
    this.maxScoreLoop(T, kk);
    const rows = s.rows;

    // Rows best first; each hit's matched terms strongest first (ties in scoring order).
    for (let i = 1; i < rows; i++) {
      const r = heap[i] ?? 0;
      let j = i;
      for (; j > 0 && this.worse(heap[j - 1] ?? 0, r); j--) heap[j] = heap[j - 1] ?? 0;
      heap[j] = r;
    }
    const hits: SearchHit<L>[] = [];
    for (let i = 0; i < rows; i++) {
      const r = heap[i] ?? 0;
      const at = r * T;
      const m = rowCount[r] ?? 0;
      for (let a = 1; a < m; a++) {
        const t = rowT[at + a] ?? 0;
        const c = rowC[at + a] ?? 0;
        let j = a;
        for (; j > 0 && (rowC[at + j - 1] ?? 0) < c; j--) {
          rowT[at + j] = rowT[at + j - 1] ?? 0;
          rowC[at + j] = rowC[at + j - 1] ?? 0;
        }
        rowT[at + j] = t;
        rowC[at + j] = c;
      }
      const matchedTerms: string[] = new Array<string>(m);
      for (let a = 0; a < m; a++) {
        const term = terms[rowT[at + a] ?? 0];
        if (term === undefined) throw new Error(MISSING);
        matchedTerms[a] = term;
      }
      const slot = this.slots[rowSlot[r] ?? 0];
      if (slot === undefined) throw new Error(MISSING);
      hits.push({ doc: slot.doc, score: rowScore[r] ?? 0, matchedTerms });
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
  protected maxScoreLoop(T: number, kk: number): void {
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
      let quick = ne > 0 ? (prefix[ne - 1] ?? 0) : 0;
      let q1: Int32Array = zeros;
      let q2: Int32Array = zeros;
      let q3: Int32Array = zeros;
      let u1 = 0;
      let u2 = 0;
      let u3 = 0;
      const b1 = ne > 0 ? neBits[ne - 1] : undefined;
      if (b1 !== undefined && b1.length > 0) {
        q1 = b1;
        u1 = ub[nonEss[ne - 1] ?? 0] ?? 0;
        quick = ne > 1 ? (prefix[ne - 2] ?? 0) : 0;
        const b2 = ne > 1 ? neBits[ne - 2] : undefined;
        if (b2 !== undefined && b2.length > 0) {
          q2 = b2;
          u2 = ub[nonEss[ne - 2] ?? 0] ?? 0;
          quick = ne > 2 ? (prefix[ne - 3] ?? 0) : 0;
          const b3 = ne > 2 ? neBits[ne - 3] : undefined;
          if (b3 !== undefined && b3.length > 0) {
            q3 = b3;
            u3 = ub[nonEss[ne - 3] ?? 0] ?? 0;
            quick = ne > 3 ? (prefix[ne - 4] ?? 0) : 0;
          }
        }
      }
      let base = END;
      for (let j = 0; j < ec; j++) {
        const c = cur[ess[j] ?? 0] ?? 0;
        if (c < base) base = c;
      }
      if (base === END) break;
      base &= ~31;
      const end = base + WINDOW;
      // Essential postings of the window into the accumulators.
      for (let j = 0; j < ec; j++) {
        const t = ess[j] ?? 0;
        const list = lists[t];
        if (list === undefined) throw new Error(MISSING);
        const { slots, gs, size } = list;
        const wt = w[t] ?? 0;
        let p = pos[t] ?? 0;
        from[j] = p;
        for (; p < size; p++) {
          const off = (slots[p] ?? 0) - base;
          if (off >= WINDOW) break;
          acc[off] = (acc[off] ?? 0) + wt * (gs[p] ?? 0);
          hits[off >> 5] = (hits[off >> 5] ?? 0) | (1 << (off & 31));
        }
        pos[t] = p;
        cur[t] = p < size ? (slots[p] ?? 0) : END;
      }
      s.done = end - 1;
      // The window's candidates in slot order.
      for (let word = 0; word < WORDS; word++) {
        let bits = hits[word] ?? 0;
        if (bits === 0) continue;
        hits[word] = 0;
        // A first bound without branching per term: the three strongest non-essential terms
        // counted only when the candidate is in them (when they have a bitmap).
        const gw = (base >> 5) + word;
        const w1 = q1[gw] ?? 0;
        const w2 = q2[gw] ?? 0;
        const w3 = q3[gw] ?? 0;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const bit = 31 - Math.clz32(low);
          const off = (word << 5) + bit;
          let partial = acc[off] ?? 0;
          acc[off] = 0;
          const bound = partial + quick + ((w1 >>> bit) & 1) * u1 + ((w2 >>> bit) & 1) * u2 + ((w3 >>> bit) & 1) * u3;
          if (bound < bar) continue;
          const d = base + off;
          let m = 0;
          let j = ne - 1;
          for (; j >= 0; j--) {
            if (partial + (prefix[j] ?? 0) < bar) break;
            const bitmap = neBits[j];
            if (bitmap === undefined) throw new Error(MISSING);
            if (bitmap.length > 0) {
              const bw = bitmap[d >> 5] ?? 0;
              if (((bw >>> (d & 31)) & 1) !== 0) {
                const t = nonEss[j] ?? 0;
                const list = lists[t];
                if (list === undefined) throw new Error(MISSING);
                const p = (list.ranks[d >> 5] ?? 0) + popcount(bw & ((1 << (d & 31)) - 1));
                partial += (w[t] ?? 0) * (list.gs[p] ?? 0);
                mT[m] = t;
                mP[m++] = p;
              }
              continue;
            }
            const t = nonEss[j] ?? 0;
            const list = lists[t];
            if (list === undefined) throw new Error(MISSING);
            if ((cur[t] ?? 0) < d) {
              const p = list.seek(pos[t] ?? 0, d);
              pos[t] = p;
              cur[t] = p < list.size ? (list.slots[p] ?? 0) : END;
            }
            if (cur[t] === d) {
              const p = pos[t] ?? 0;
              partial += (w[t] ?? 0) * (list.gs[p] ?? 0);
              mT[m] = t;
              mP[m++] = p;
              pos[t] = p + 1;
              cur[t] = p + 1 < list.size ? (list.slots[p + 1] ?? 0) : END;
            }
          }
          if (j >= 0 || partial < bar) continue;
          // Seeds were scored already (see `seed`).
          while (seedAt < seedCount && (seeds[seedAt] ?? 0) < d) seedAt++;
          if (seedAt < seedCount && seeds[seedAt] === d) continue;
          // A survivor: find its essential postings again (few survivors, so a skip each).
          for (let e = 0; e < ec; e++) {
            const list = lists[ess[e] ?? 0];
            if (list === undefined) throw new Error(MISSING);
            let p: number;
            if (list.bits.length > 0) p = list.rank(d);
            else {
              p = list.seek(from[e] ?? 0, d);
              from[e] = p;
              if (p >= list.size || list.slots[p] !== d) p = -1;
            }
            if (p >= 0) {
              mT[m] = ess[e] ?? 0;
              mP[m++] = p;
            }
          }
          if (this.offer(d, m, T, kk)) bar = s.theta / SLACK;
        }
      }
    }
  }
}
