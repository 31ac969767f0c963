// Differential property test: the document-at-a-time LexicalIndex against the term-at-a-time
// reference it replaced (lexical-index.reference.fixture.ts), on random corpora, random update
// sequences and random queries. Results must be identical: same hits in the same order, the
// same scores bit for bit, the same matched terms, and the same answers from the other readers.
import { mulberry32 } from '@igw/testing';
import { DEFAULT_BM25, type Bm25Params, type IntentionDocument, type QueryTerm, type SearchHit } from './document';
import { LexicalIndex } from './lexical-index';
import { ReferenceLexicalIndex } from './lexical-index.reference.fixture';
import { tokenize } from './tokenize';

const BUSINESS = (
  'customer contact account deal invoice payment refund subscription ticket order product report export ' +
  'email message channel file document folder page project issue repository branch deploy employee ' +
  'payroll vendor expense campaign lead pipeline forecast revenue churn metric dashboard warehouse query ' +
  'secret credential user group role permission calendar meeting event task status owner region team ' +
  'record history note comment attachment summary plan quote contract signature shipment inventory'
).split(' ');
const VERBS = 'get list read search find create update write delete remove export send post merge approve rotate run schedule'.split(' ');
const SOURCES = 'hubspot salesforce stripe zendesk jira github slack gmail snowflake postgres workday okta notion shopify'.split(' ');
const CLASSES: IntentionDocument['intentClass'][] = ['lookup', 'write', 'export', 'admin', 'reporting', 'analysis', 'other'];

/** Made-up words: a long tail of org-specific terms, so the vocabulary grows with the corpus. */
const coined = (r: number) => {
  const syl = ['ka', 'lo', 'mi', 'ter', 'vu', 'zan', 'qui', 'bro', 'sel', 'dax', 'fen', 'gor'];
  let w = '';
  for (let x = r + 7; x > 0; x = Math.floor(x / syl.length)) w += syl[x % syl.length];
  return w;
};

class World {
  readonly rnd: () => number;
  private labelSeq = 0;
  constructor(seed: number) {
    this.rnd = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }
  /** Skewed pick: low indices are the common words. */
  skew<T>(xs: readonly T[], power = 2.5): T {
    return xs[Math.floor(xs.length * this.rnd() ** power)]!;
  }
  word(): string {
    const r = this.rnd();
    if (r < 0.55) return this.skew(BUSINESS);
    if (r < 0.7) return this.skew(VERBS, 1.5);
    if (r < 0.8) return this.skew(SOURCES);
    return coined(Math.floor(400 * this.rnd() ** 2));
  }
  words(n: number): string[] {
    return Array.from({ length: n }, () => this.word());
  }
  /** A unique label (as the registry guarantees per org), with words that also match queries. */
  label(): string {
    return `${this.word()}.${this.word()}_${this.word()}.n${coined(1000 + this.labelSeq++)}`;
  }
  doc(id: string): IntentionDocument {
    const sentences = Array.from({ length: 1 + this.int(3) }, () => {
      const s = this.words(3 + this.int(9)).join(' ');
      return this.rnd() < 0.15 ? `Do not ${s}.` : `${s[0]!.toUpperCase()}${s.slice(1)}.`;
    });
    return {
      id,
      label: this.label(),
      displayName: this.words(1 + this.int(4)).join(' '),
      description: this.rnd() < 0.05 ? '' : sentences.join(' '),
      intentClass: CLASSES[this.int(CLASSES.length)]!,
      dataElements: Array.from({ length: this.int(5) }, () => ({ dataSourceId: this.skew(SOURCES), path: `${this.word()}s.${this.word()}_${this.word()}` })),
      ...(this.rnd() < 0.3 ? { status: this.rnd() < 0.8 ? ('active' as const) : this.rnd() < 0.5 ? ('draft' as const) : ('archived' as const) } : {}),
    };
  }
  /** Same content as `of` under a new id and label that differs only in words no query uses: exact score ties. */
  clone(of: IntentionDocument, id: string): IntentionDocument {
    return { ...of, id, label: of.label.replace(/\.n[a-z]+$/, `.n${coined(1000 + this.labelSeq++)}`), status: undefined };
  }
  query(): QueryTerm[] {
    const weights = [1, 0.5, 0.35, 0.3, 0.3, 0.5 * this.rnd(), 1 + this.rnd()];
    const n = 1 + Math.floor(40 * this.rnd() ** 2);
    const seen = new Set<string>();
    const q: QueryTerm[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.rnd();
      const terms = r < 0.03 ? ['zzqxnotindexed'] : tokenize(this.word());
      for (const term of terms) {
        // Mostly merged (as buildQuery does), sometimes a duplicate: both must treat it alike.
        if (seen.has(term) && this.rnd() < 0.9) continue;
        seen.add(term);
        const weight = this.rnd() < 0.03 ? (this.rnd() < 0.5 ? 0 : -0.5) : weights[this.int(weights.length)]!;
        q.push({ term, weight });
      }
    }
    return q;
  }
  k(size: number): number {
    const ks = [1, 2, 3, 5, 10, 10, 10, 20, 50, Math.max(1, size)];
    return ks[this.int(ks.length)]!;
  }
}

const view = (hits: SearchHit[]) => hits.map((h) => ({ id: h.doc.id, label: h.doc.label, score: h.score, matchedTerms: h.matchedTerms }));

/** Applies the same operations to both indexes and checks every reader agrees. */
class Pair {
  readonly fast: LexicalIndex;
  readonly ref: ReferenceLexicalIndex;
  readonly live = new Map<string, IntentionDocument>();
  searches = 0;
  hits = 0;
  constructor(params: Bm25Params = DEFAULT_BM25) {
    this.fast = new LexicalIndex(params);
    this.ref = new ReferenceLexicalIndex(params);
  }
  upsert(d: IntentionDocument): void {
    this.fast.upsert(d);
    this.ref.upsert(d);
    this.live.set(d.id, d);
  }
  sync(d: IntentionDocument): void {
    this.fast.sync(d);
    this.ref.sync(d);
    if (d.status === undefined || d.status === 'active') this.live.set(d.id, d);
    else this.live.delete(d.id);
  }
  remove(id: string): void {
    expect(this.fast.remove(id)).toBe(this.ref.remove(id));
    this.live.delete(id);
  }
  check(w: World, queries: number): void {
    expect(this.fast.size).toBe(this.ref.size);
    for (let i = 0; i < queries; i++) {
      const query = w.query();
      const k = w.k(this.ref.size);
      const expected = view(this.ref.search(query, k));
      const actual = view(this.fast.search(query, k));
      if (JSON.stringify(actual) !== JSON.stringify(expected) || actual.some((h, j) => !Object.is(h.score, expected[j]!.score))) {
        // Show the first difference with its query (toEqual compares numbers exactly).
        expect({ query, k, hits: actual }).toEqual({ query, k, hits: expected });
      }
      expect(this.fast.maxScore(query)).toBe(this.ref.maxScore(query));
      this.searches++;
      this.hits += actual.length;
      for (const { term } of query.slice(0, 5)) {
        expect(this.fast.documentFrequency(term)).toBe(this.ref.documentFrequency(term));
        expect(this.fast.idf(term)).toBe(this.ref.idf(term));
      }
      const ids = [...this.live.keys()];
      for (let j = 0; j < 3 && ids.length > 0; j++) {
        const id = w.rnd() < 0.9 ? ids[w.int(ids.length)]! : 'no-such-id';
        expect(this.fast.has(id)).toBe(this.ref.has(id));
        expect(this.fast.get(id)).toBe(this.ref.get(id));
        for (const { term } of query.slice(0, 8)) expect(this.fast.hasTerm(id, term)).toBe(this.ref.hasTerm(id, term));
      }
    }
  }
}

/** Builds a corpus of `n` documents (some of them clones), then mutates and queries it. */
function scenario(seed: number, n: number, params?: Bm25Params): Pair {
  const w = new World(seed);
  const pair = new Pair(params);
  const docs: IntentionDocument[] = [];
  for (let i = 0; i < n; i++) {
    const d = docs.length > 0 && w.rnd() < 0.08 ? w.clone(docs[w.int(docs.length)]!, `d${i}`) : w.doc(`d${i}`);
    docs.push(d);
    pair.sync(d);
  }
  pair.check(w, 60);
  // Updates interleaved with queries: each change restales corpus statistics and posting values.
  for (let round = 0; round < 12; round++) {
    const changes = 1 + w.int(round % 3 === 0 ? 150 : 8);
    for (let c = 0; c < changes; c++) {
      const r = w.rnd();
      const id = `d${w.int(Math.ceil(n * 1.1))}`;
      if (r < 0.3) pair.remove(id);
      else if (r < 0.5) pair.sync({ ...w.doc(id), status: w.rnd() < 0.6 ? 'active' : 'archived' });
      else if (r < 0.6 && pair.live.size > 0) pair.upsert(w.clone([...pair.live.values()][w.int(pair.live.size)]!, id));
      else pair.upsert(w.doc(id));
    }
    pair.check(w, 25);
  }
  return pair;
}

describe('LexicalIndex against the term-at-a-time reference (differential)', () => {
  const cases: [number, number][] = [
    [1, 200],
    [2, 600],
    [3, 1500],
    [4, 3000],
    [5, 40],
  ];
  it.each(cases)('seed %d, %d intentions: identical results across upserts, removes and syncs', (seed, n) => {
    const pair = scenario(seed, n);
    expect(pair.searches).toBeGreaterThan(300);
    expect(pair.hits).toBeGreaterThan(pair.searches); // the queries do find things
  });

  it('identical with other BM25F parameters (a zero field weight, b = 1, larger k1)', () => {
    const params: Bm25Params = {
      k1: 2,
      fields: {
        label: { weight: 4, b: 1 },
        displayName: { weight: 0, b: 0.5 },
        description: { weight: 1, b: 1 },
        data: { weight: 2.5, b: 0 },
        intentClass: { weight: 0.5, b: 0.2 },
      },
    };
    scenario(11, 800, params);
  });

  it('identical on a corpus emptied and refilled', () => {
    const w = new World(21);
    const pair = new Pair();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 300; i++) pair.upsert(w.doc(`r${round}-${i}`));
      pair.check(w, 30);
      pair.fast.clear();
      pair.ref.clear();
      pair.live.clear();
      expect(pair.fast.size).toBe(0);
      expect(pair.fast.search([{ term: 'customer', weight: 1 }], 5)).toEqual([]);
    }
  });

  it('a growing corpus answered between every batch of upserts (lazy refresh of long lists)', () => {
    const w = new World(31);
    const pair = new Pair();
    for (let i = 0; i < 2000; i++) {
      pair.upsert(w.doc(`g${i}`));
      if (i % 97 === 0) pair.check(w, 3);
    }
    pair.check(w, 40);
  });
});

describe('LexicalIndex exact ties', () => {
  it('orders equal scores by label, and identical labels by id', () => {
    const index = new LexicalIndex();
    const base: IntentionDocument = { id: 'x', label: 'svc.same', displayName: 'Same', description: 'alpha beta', intentClass: 'lookup', dataElements: [] };
    index.upsertMany([
      { ...base, id: 'c' },
      { ...base, id: 'a' },
      { ...base, id: 'b', label: 'svc.same' },
      { ...base, id: 'z', label: 'svc.earlier' },
    ]);
    const query = [{ term: 'alpha', weight: 1 }];
    expect(index.search(query, 3).map((h) => h.doc.id)).toEqual(['z', 'a', 'b']);
    expect(new Set(index.search(query, 4).map((h) => h.score)).size).toBe(1);
  });
});
