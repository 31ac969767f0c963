import type { IntentionDocument, QueryTerm } from './document';
import { LexicalIndex } from './lexical-index';
import { tokenize } from './tokenize';

const doc = (id: string, label: string, description: string, extra: Partial<IntentionDocument> = {}): IntentionDocument => ({
  id,
  label,
  displayName: label,
  description,
  intentClass: 'lookup',
  dataElements: [],
  ...extra,
});

const q = (text: string, weight = 1): QueryTerm[] => [...new Set(tokenize(text))].map((term) => ({ term, weight }));

describe('LexicalIndex', () => {
  const corpus = () => {
    const index = new LexicalIndex();
    index.upsertMany([
      doc('inv', 'billing.invoice_lookup', 'Retrieve an invoice from Stripe.', { dataElements: [{ dataSourceId: 'stripe', path: 'invoices.amount_due' }] }),
      doc('ref', 'billing.refund_issue', 'Issue a refund of a customer payment.', { intentClass: 'write' }),
      doc('tix', 'support.ticket_lookup', 'Search and read support tickets, including any invoice the customer attached.'),
      doc('dir', 'hr.employee_directory', 'Find a colleague in Workday.'),
    ]);
    return index;
  };

  it('ranks a match in the label above a passing mention in a description', () => {
    const hits = corpus().search(q('invoice'), 5);
    expect(hits.map((h) => h.doc.id)).toEqual(['inv', 'tix']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('weighs rare terms above common ones (idf)', () => {
    const index = corpus();
    // "customer" is in two intentions, "refund" in one.
    expect(index.idf('refund')).toBeGreaterThan(index.idf('customer'));
    expect(index.search(q('customer refund'), 1)[0]!.doc.id).toBe('ref');
  });

  it('reports the matched terms, strongest first, and only returns documents sharing a term', () => {
    const hits = corpus().search(q('get stripe invoice'), 10);
    expect(hits[0]!.doc.id).toBe('inv');
    expect([...hits[0]!.matchedTerms].sort()).toEqual(
      q('get stripe invoice')
        .map((t) => t.term)
        .sort(),
    );
    // "Find a colleague" shares only the read verb; the refund intention shares nothing.
    expect(hits.find((h) => h.doc.id === 'dir')!.matchedTerms).toEqual(['read']);
    expect(hits.map((h) => h.doc.id)).not.toContain('ref');
  });

  it('gives each term’s share of a hit’s score (what the classifier splits by source)', () => {
    const index = corpus();
    const query = q('get stripe invoice');
    const [hit] = index.search(query, 1);
    const sum = query.reduce((t, x) => t + x.weight * index.termScore(hit!.doc.id, x.term), 0);
    expect(sum).toBeCloseTo(hit!.score, 9);
    expect(index.termScore('ref', 'invoic')).toBe(0);
    expect(index.termScore('nobody', 'invoic')).toBe(0);
    expect(index.termScore('inv', 'stripe')).toBeGreaterThan(0);
  });

  it('keeps scores under the query maximum', () => {
    const index = corpus();
    const query = q('invoice refund');
    for (const h of index.search(query, 10)) expect(h.score).toBeLessThan(index.maxScore(query));
  });

  it('weights query terms', () => {
    const index = corpus();
    const hits = index.search(
      [
        { term: 'invoic', weight: 1 },
        { term: 'refund', weight: 0.1 },
      ],
      2,
    );
    expect(hits[0]!.doc.id).toBe('inv');
  });

  it('returns top-k best first with a deterministic tie order', () => {
    const index = new LexicalIndex();
    index.upsertMany([doc('b', 'b.same', 'alpha'), doc('a', 'a.same', 'alpha'), doc('c', 'c.same', 'alpha')]);
    expect(index.search(q('alpha'), 2).map((h) => h.doc.label)).toEqual(['a.same', 'b.same']);
  });

  it('upsert replaces an intention in place (no stale terms)', () => {
    const index = corpus();
    index.upsert(doc('dir', 'hr.employee_directory', 'Find a colleague in BambooHR.'));
    expect(index.size).toBe(4);
    expect(index.documentFrequency('workday')).toBe(0);
    expect(index.search(q('BambooHR'), 1)[0]!.doc.id).toBe('dir');
  });

  it('remove takes an intention out of every posting list and the corpus statistics', () => {
    const index = corpus();
    expect(index.remove('inv')).toBe(true);
    expect(index.remove('inv')).toBe(false);
    expect(index.size).toBe(3);
    expect(index.documentFrequency('stripe')).toBe(0);
    expect(index.has('inv')).toBe(false);
    expect(index.search(q('invoice'), 5).map((h) => h.doc.id)).toEqual(['tix']);
    // Same scores as an index built without it: statistics were kept exact.
    const fresh = new LexicalIndex();
    fresh.upsertMany(['ref', 'tix', 'dir'].map((id) => corpus().get(id)!));
    expect(index.search(q('customer invoice'), 5)).toEqual(fresh.search(q('customer invoice'), 5));
  });

  it('reuses the slots of removed intentions', () => {
    const index = new LexicalIndex();
    for (let round = 0; round < 3; round++) {
      index.upsertMany([doc('x', 'x', 'alpha'), doc('y', 'y', 'beta')]);
      index.remove('x');
      index.remove('y');
    }
    expect(index.size).toBe(0);
    expect(index.search(q('alpha beta'), 5)).toEqual([]);
  });

  it('sync keeps only active intentions', () => {
    const index = corpus();
    index.sync(doc('new', 'crm.customer_delete', 'Delete a contact.', { status: 'draft' }));
    expect(index.has('new')).toBe(false);
    index.sync(doc('new', 'crm.customer_delete', 'Delete a contact.', { status: 'active' }));
    expect(index.has('new')).toBe(true);
    index.sync(doc('new', 'crm.customer_delete', 'Delete a contact.', { status: 'archived' }));
    expect(index.has('new')).toBe(false);
  });

  it('indexes display name, data-element paths, data sources and the class verb', () => {
    const index = new LexicalIndex();
    index.upsert(doc('c', 'crm.lookup', '', { displayName: 'Customer lookup', dataElements: [{ dataSourceId: 'hubspot', path: 'contacts.email' }] }));
    for (const term of ['customer', 'contact', 'email', 'hubspot', 'read']) expect(index.hasTerm('c', term)).toBe(true);
  });

  it('leaves negated description sentences out', () => {
    const index = new LexicalIndex();
    index.upsert(doc('u', 'crm.update', 'Edit contacts. Deleting records is not covered.', { intentClass: 'write' }));
    expect(index.hasTerm('u', 'delete')).toBe(false);
    expect(index.hasTerm('u', 'contact')).toBe(true);
  });

  it('loads many intentions and still answers from posting lists', () => {
    const index = new LexicalIndex();
    index.upsertMany(Array.from({ length: 2000 }, (_, i) => doc(`d${i}`, `svc${i}.thing_lookup`, `Look up thing number ${i} in system ${i % 50}.`)));
    index.upsert(doc('needle', 'crm.zebra_lookup', 'Find a zebra.'));
    expect(index.size).toBe(2001);
    expect(index.search(q('get zebra'), 1)[0]!.doc.id).toBe('needle');
  });

  describe('against exhaustive scoring', () => {
    // A skewed synthetic corpus: a few words in most intentions, so posting lists are long
    // enough for pruning to kick in.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const words = Array.from({ length: 400 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
    const pick = () => words[Math.floor(words.length * rnd() ** 3)]!;
    const synthetic = (i: number) =>
      doc(`s${i}`, `svc.${pick()}_${pick()}`, Array.from({ length: 12 }, pick).join(' '), { displayName: `${pick()} ${pick()}` });

    it('pruned top-k equals the head of the full ranking', () => {
      const index = new LexicalIndex();
      index.upsertMany(Array.from({ length: 1500 }, (_, i) => synthetic(i)));
      for (let trial = 0; trial < 40; trial++) {
        const query = [...new Set(Array.from({ length: 1 + (trial % 6) }, pick))].map((term, i) => ({ term: tokenize(term)[0]!, weight: i === 0 ? 1 : 0.5 }));
        const all = index.search(query, index.size);
        expect(index.search(query, 5)).toEqual(all.slice(0, 5));
      }
    });

    it('random upserts and removes leave the same index as a fresh build', () => {
      const index = new LexicalIndex();
      const live = new Map<string, IntentionDocument>();
      for (let step = 0; step < 600; step++) {
        const id = `s${Math.floor(rnd() * 150)}`;
        if (rnd() < 0.35) {
          index.remove(id);
          live.delete(id);
        } else {
          const d = { ...synthetic(step), id };
          index.upsert(d);
          live.set(id, d);
        }
      }
      const fresh = new LexicalIndex();
      fresh.upsertMany(live.values());
      expect(index.size).toBe(fresh.size);
      for (const w of words.slice(0, 30)) {
        const query = [
          { term: tokenize(w)[0]!, weight: 1 },
          { term: tokenize(words[words.length - 1 - words.indexOf(w)]!)[0]!, weight: 0.5 },
        ];
        expect(index.documentFrequency(query[0]!.term)).toBe(fresh.documentFrequency(query[0]!.term));
        const a = index.search(query, 8);
        const b = fresh.search(query, 8);
        expect(a.map((h) => h.doc.id)).toEqual(b.map((h) => h.doc.id));
        a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 9));
      }
    });
  });
});
