import { buildQuery, LexicalClassifier, SOURCE_WEIGHTS, type ClassificationInput } from './lexical-classifier';
import { LexicalIndex, type IntentionDocument } from './lexical-index';

const intention = (id: string, label: string, intentClass: IntentionDocument['intentClass'], displayName: string, description: string, paths: string[], source: string): IntentionDocument => ({
  id,
  label,
  intentClass,
  displayName,
  description,
  dataElements: paths.map((path) => ({ dataSourceId: source, path })),
});

const INTENTIONS: IntentionDocument[] = [
  intention('i1', 'crm.customer_lookup', 'lookup', 'Customer lookup', 'Look up a customer account or contact in the CRM by name or email.', ['contacts.email', 'contacts.name', 'accounts.owner'], 'hubspot'),
  intention('i2', 'crm.customer_update', 'write', 'Update customer record', 'Edit fields on an existing CRM contact or account. Deleting records is not covered.', ['contacts.phone', 'accounts.owner'], 'hubspot'),
  intention('i3', 'crm.contact_export', 'export', 'Export contact list', 'Bulk export of CRM contacts with email addresses to CSV.', ['contacts.email', 'contacts.name'], 'hubspot'),
  intention('i4', 'comms.email_read', 'lookup', 'Read email', "Search the user's Gmail mailbox and read messages and threads.", ['messages.subject', 'messages.body'], 'gmail'),
  intention('i5', 'comms.email_send', 'write', 'Send email', "Compose and send an email, or reply to one, from the user's Gmail account.", ['messages.to', 'messages.body'], 'gmail'),
  intention('i6', 'billing.invoice_lookup', 'lookup', 'Invoice lookup', 'Retrieve an invoice or the invoice history of a customer from Stripe.', ['invoices.amount_due', 'invoices.status'], 'stripe'),
  intention('i7', 'analytics.warehouse_query', 'analysis', 'Ad-hoc warehouse SQL', 'Run read-only SQL queries against the Snowflake analytics warehouse.', ['analytics.tables'], 'snowflake'),
  intention('i8', 'hr.employee_directory', 'lookup', 'Employee directory', "Find a colleague's work email, title and manager in Workday.", ['workers.name', 'workers.manager'], 'workday'),
];

const classifierFor = (docs = INTENTIONS) => {
  const index = new LexicalIndex();
  index.upsertMany(docs);
  return { index, classifier: new LexicalClassifier(index) };
};

const call = (toolName: string, args?: Record<string, unknown>, context?: string[]): ClassificationInput => ({
  toolName,
  arguments: args,
  conversationContext: context?.map((content) => ({ role: 'user', content })),
});

describe('LexicalClassifier', () => {
  const { classifier } = classifierFor();

  it('picks the intention a tool call names', () => {
    const r = classifier.classify(call('stripe.retrieve_invoice', { invoice: 'in_1PqR2sT' }));
    expect(r.decision).toEqual({ kind: 'intention', intentionId: 'i6', label: 'billing.invoice_lookup', intentClass: 'lookup' });
    expect(r.confidence).toBeGreaterThan(0.9);
    expect(r.confident).toBe(true);
  });

  it('tells read from write on the same object (near miss)', () => {
    expect(classifier.classify(call('hubspot.get_contact', { contact_id: '5123' })).decision.label).toBe('crm.customer_lookup');
    expect(classifier.classify(call('hubspot.update_contact', { contact_id: '5123', properties: { phone: '+1 415' } })).decision.label).toBe('crm.customer_update');
    expect(classifier.classify(call('search_emails', { query: 'from:legal' })).decision.label).toBe('comms.email_read');
    expect(classifier.classify(call('send_email', { to: ['a@b.co'], subject: 'Hi', body: 'Hello' })).decision.label).toBe('comms.email_send');
  });

  it('tells export from lookup on the same object (near miss)', () => {
    expect(classifier.classify(call('hubspot.export_contacts', { format: 'csv' })).decision.label).toBe('crm.contact_export');
    expect(classifier.classify(call('getContactByEmail', { email: 'jane@initech.com' })).decision.label).toBe('crm.customer_lookup');
  });

  it('falls into the ambient cluster when nothing covers the call', () => {
    for (const name of ['get_weather', 'spotify_play', 'calculator', 'translate_text']) {
      const r = classifier.classify(call(name, { city: 'Berlin' }));
      expect(r.decision).toEqual({ kind: 'ambient', label: 'ambient', intentClass: 'other' });
      expect(r.confidence).toBeGreaterThan(0.5);
    }
  });

  it('is ambient over an empty index, with empty supporting evidence', () => {
    const r = new LexicalClassifier(new LexicalIndex()).classify(call('crm.get_customer'));
    expect(r.decision.kind).toBe('ambient');
    expect(r.evidence.supporting_evidence).toEqual([]);
    expect(r.confidence).toBeGreaterThan(0.9);
  });

  it('does not match what an intention excludes, nor what it does not permit', () => {
    // Only a negated sentence mentions deleting; no intention permits delete on contacts.
    const r = classifier.classify(call('hubspot.delete_contact', { contact_id: '5123' }));
    expect(r.confident && r.decision.kind === 'intention').toBe(false);
    expect(r.evidence.supporting_evidence.every((e) => !e.matched_terms.includes('delete'))).toBe(true);
  });

  it('uses conversation context to place a generic tool', () => {
    const r = classifier.classify(call('execute', { statement: 'SELECT 1' }, ['Can you run a SQL query on the analytics warehouse?']));
    expect(r.decision.label).toBe('analytics.warehouse_query');
  });

  it('stops matching an intention once it is archived', () => {
    const { index, classifier: c } = classifierFor();
    expect(c.classify(call('workday_get_worker', { worker_id: '21001' })).decision.label).toBe('hr.employee_directory');
    index.sync({ ...INTENTIONS[7]!, status: 'archived' });
    expect(c.classify(call('workday_get_worker', { worker_id: '21001' })).decision.kind).toBe('ambient');
  });

  it('reports classification_evidence in the v1 shape', () => {
    const r = classifier.classify(call('list_invoices', { customer: 'cus_Nf82kd0' }));
    expect(r.evidence).toEqual({
      classification_method: 'lexical',
      evaluation_layers_consulted: ['lexical'],
      confidence: r.confidence,
      supporting_evidence: expect.any(Array),
      schema_version: 1,
    });
    expect(r.evidence.supporting_evidence.length).toBeGreaterThan(0);
    expect(r.evidence.supporting_evidence.length).toBeLessThanOrEqual(3);
    const [top, ...rest] = r.evidence.supporting_evidence;
    expect(top).toEqual({
      intent_label: 'billing.invoice_lookup',
      intention_id: 'i6',
      intent_class: 'lookup',
      score: expect.any(Number),
      relative_score: expect.any(Number),
      matched_terms: expect.arrayContaining(['invoic', 'read']),
    });
    for (const e of rest) expect(e.score).toBeLessThanOrEqual(top!.score);
    expect(top!.relative_score).toBeGreaterThan(0);
    expect(top!.relative_score).toBeLessThanOrEqual(1);
  });

  it('keeps confidence in 0..1 and confident consistent with the threshold', () => {
    const inputs = [call('get_weather'), call('hubspot.get_contact'), call('run'), call('hubspot_contact_email_read_send_export'), call('')];
    for (const input of inputs) {
      const r = classifier.classify(input);
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
      expect(r.confident).toBe(r.confidence >= classifier.options.confidentAt);
      expect(r.evidence.confidence).toBe(r.confidence);
    }
  });

  it('is less confident on a near tie than on a clear win', () => {
    const clear = classifier.classify(call('stripe.retrieve_invoice'));
    const tie = classifier.classify(call('hubspot_contact'));
    expect(tie.signals.margin).toBeLessThan(clear.signals.margin);
    expect(tie.confidence).toBeLessThan(clear.confidence);
  });

  it('honours a custom ambient floor', () => {
    const strict = new LexicalClassifier(classifierFor().index, { ambientFloor: 0.99 });
    expect(strict.classify(call('stripe.retrieve_invoice')).decision.kind).toBe('ambient');
  });
});

describe('buildQuery', () => {
  it('weights tool name over argument keys, values and chat, keeping the highest weight of a term', () => {
    const query = buildQuery(call('get_invoice', { customer_id: 'cus_9', reason: 'duplicate charge', nested: { refund_amount: 3 } }, ['the customer wants a refund']));
    const w = Object.fromEntries(query.map((t) => [t.term, t.weight]));
    expect(w.read).toBe(SOURCE_WEIGHTS.toolName);
    expect(w.invoic).toBe(SOURCE_WEIGHTS.toolName);
    expect(w.customer).toBe(SOURCE_WEIGHTS.argumentKey);
    expect(w.refund).toBe(SOURCE_WEIGHTS.argumentKey);
    expect(w.duplicat).toBe(SOURCE_WEIGHTS.argumentValue);
    expect(w.want).toBe(SOURCE_WEIGHTS.conversation);
  });

  it('skips identifier-like argument values (ids, e-mail addresses, URLs, file names)', () => {
    const query = buildQuery(call('lookup', { a: 'cus_Nf82kd0', b: 'jane@initech.com', c: 'https://example.com/page', d: 'contacts.csv', e: 'vacation' }));
    expect(query.map((t) => t.term).sort()).toEqual(['read', 'vacation']);
  });

  it('reads only the last few non-system messages', () => {
    const query = buildQuery({
      toolName: 'tool',
      conversationContext: [
        { role: 'user', content: 'alpha' },
        { role: 'user', content: 'bravo' },
        { role: 'system', content: 'charlie' },
        { role: 'assistant', content: 'delta' },
        { role: 'user', content: 'echo' },
      ],
    });
    expect(query.map((t) => t.term).sort()).toEqual(['bravo', 'delta', 'echo', 'tool']);
  });
});
