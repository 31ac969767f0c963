import { buildQuery, LexicalClassifier, type ClassificationInput } from './index';
import type { IntentClass } from '@igw/kernel';
import { LexicalIndex } from '@igw/lexical-index';
import type { IntentionDocument } from './index';

const intention = (
  id: string,
  label: string,
  intentClass: IntentionDocument['intentClass'],
  displayName: string,
  description: string,
  paths: string[],
  source: string,
): IntentionDocument => ({
  id,
  label,
  intentClass,
  displayName,
  description,
  dataElements: paths.map((path) => ({ dataSourceId: source, path })),
});

const INTENTIONS: IntentionDocument[] = [
  intention(
    'i1',
    'crm.customer_lookup',
    'lookup',
    'Customer lookup',
    'Look up a customer account or contact in the CRM by name or email.',
    ['contacts.email', 'contacts.name', 'accounts.owner'],
    'hubspot',
  ),
  intention(
    'i2',
    'crm.customer_update',
    'write',
    'Update customer record',
    'Edit fields on an existing CRM contact or account. Deleting records is not covered.',
    ['contacts.phone', 'accounts.owner'],
    'hubspot',
  ),
  intention(
    'i3',
    'crm.contact_export',
    'export',
    'Export contact list',
    'Bulk export of CRM contacts with email addresses to CSV.',
    ['contacts.email', 'contacts.name'],
    'hubspot',
  ),
  intention(
    'i4',
    'comms.email_read',
    'lookup',
    'Read email',
    "Search the user's Gmail mailbox and read messages and threads.",
    ['messages.subject', 'messages.body'],
    'gmail',
  ),
  intention(
    'i5',
    'comms.email_send',
    'write',
    'Send email',
    "Compose and send an email, or reply to one, from the user's Gmail account.",
    ['messages.to', 'messages.body'],
    'gmail',
  ),
  intention(
    'i6',
    'billing.invoice_lookup',
    'lookup',
    'Invoice lookup',
    'Retrieve an invoice or the invoice history of a customer from Stripe.',
    ['invoices.amount_due', 'invoices.status'],
    'stripe',
  ),
  intention(
    'i7',
    'analytics.warehouse_query',
    'analysis',
    'Ad-hoc warehouse SQL',
    'Run read-only SQL queries against the Snowflake analytics warehouse.',
    ['analytics.tables'],
    'snowflake',
  ),
  intention(
    'i8',
    'hr.employee_directory',
    'lookup',
    'Employee directory',
    "Find a colleague's work email, title and manager in Workday.",
    ['workers.name', 'workers.manager'],
    'workday',
  ),
  intention(
    'i9',
    'admin.credential_rotation',
    'admin',
    'Rotate credentials',
    'Rotate or revoke API keys, tokens and service secrets stored in Vault.',
    ['secrets.path', 'secrets.version'],
    'vault',
  ),
  intention(
    'i10',
    'code.pull_request_create',
    'write',
    'Open pull request',
    'Create a branch, commit file changes and open a pull request on GitHub for review.',
    ['pulls.title', 'pulls.body'],
    'github',
  ),
  intention(
    'i11',
    'code.production_deploy',
    'admin',
    'Deploy to production',
    'Trigger a CI/CD deployment, or a rollback, of a service to staging or production.',
    ['deployments.environment'],
    'ci',
  ),
  intention(
    'i12',
    'admin.user_provisioning',
    'admin',
    'User provisioning',
    'Create, deactivate or reactivate user accounts in Okta.',
    ['users.login', 'users.status'],
    'okta',
  ),
];

const classifierFor = (docs = INTENTIONS) => {
  const index = new LexicalIndex<IntentClass>();
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
    expect(classifier.classify(call('hubspot.update_contact', { contact_id: '5123', properties: { phone: '+1 415' } })).decision.label).toBe(
      'crm.customer_update',
    );
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
    const r = new LexicalClassifier(new LexicalIndex<IntentClass>()).classify(call('crm.get_customer'));
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
      probability: r.confidence,
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

  it('does not confidently match a different action on the same object (right nouns, wrong verb)', () => {
    for (const [name, args] of [
      ['vault.read_secret', { path: 'kv/payments/stripe_api_key' }],
      ['merge_pull_request', { owner: 'ourco', repo: 'gateway', pullNumber: 812 }],
      ['kubectl_scale_deployment', { namespace: 'payments', deployment: 'api', replicas: 6 }],
      ['okta.reset_password', { userId: '00u7mo' }],
    ] as const) {
      const r = classifier.classify(call(name, args));
      // The verb check weighs heavily but is no veto (a verb can be misread lexically): a match
      // on the right nouns with the wrong verb is left to the later layers, never confident.
      expect({ name, confidentMatch: r.decision.kind === 'intention' && r.confident, actionMatch: r.signals.actionMatch }).toEqual({
        name,
        confidentMatch: false,
        actionMatch: 0,
      });
    }
  });

  it('matches the action an intention names or its class implies', () => {
    expect(classifier.classify(call('vault.rotate_secret', { path: 'kv/payments/stripe_api_key' })).decision.label).toBe('admin.credential_rotation');
    expect(classifier.classify(call('revoke_api_key', { key_id: 'ak_live_93' })).decision.label).toBe('admin.credential_rotation');
    expect(classifier.classify(call('ci.rollback_deployment', { service: 'payments' })).decision.label).toBe('code.production_deploy');
    // disable → deactivate, and "create" is implied by the admin class.
    expect(classifier.classify(call('okta.disable_user', { userId: '00u7mo' })).decision.label).toBe('admin.user_provisioning');
    expect(classifier.classify(call('okta.create_user', { login: 'mo@ourco.com' })).decision.label).toBe('admin.user_provisioning');
  });

  it('reads a query tool that runs a DELETE as a delete, not as the read its name says', () => {
    const read = classifier.classify(call('snowflake.run_query', { sql: 'SELECT count(*) FROM analytics.events' }));
    expect(read.decision.label).toBe('analytics.warehouse_query');
    const destructive = classifier.classify(call('snowflake.run_query', { sql: 'DELETE FROM analytics.events' }));
    expect(destructive.signals.actionMatch).toBe(0);
    expect(destructive.decision.kind === 'intention' && destructive.confident).toBe(false);
  });

  it('takes the first verb of the tool name as its action', () => {
    const r = classifier.classify(call('kubectl_scale_deployment'));
    expect(r.signals.actionMatch).toBe(0);
    expect(classifier.classify(call('trigger_deployment', { environment: 'production' })).signals.actionMatch).toBe(1);
  });

  it('does not let argument keys or values vote for an action', () => {
    // `created_after` and a body saying "update" are data, not the call's action.
    const query = buildQuery(call('list_invoices', { created_after: '2025-01-01', note: 'please update the owner' }));
    expect(query.map((q) => q.term)).not.toContain('write');
    expect(query.filter((q) => q.term === 'read').map((q) => q.source)).toEqual(['toolName']);
  });

  it('is ambient when the best candidate shares only a generic verb with the call', () => {
    const r = classifier.classify(call('get_stock_price', { ticker: 'NVDA' }));
    expect(r.signals.objectMatch).toBe(0);
    expect(r.decision.kind).toBe('ambient');
  });

  it('survives words that are Object.prototype members anywhere in the call', () => {
    const r = classifier.classify(call('constructor', { constructor: 'toString', hasOwnProperty: { __proto__: 'x' } }, ['constructor valueOf']));
    expect(r.decision.kind).toBe('ambient');
  });

  it('never reports an exact tie between two intentions above one half (later layers decide)', () => {
    const index = new LexicalIndex<IntentClass>();
    index.upsertMany([
      intention('a', 'crm.contacts_lookup', 'lookup', '', 'Look up CRM contacts to answer a question about a customer.', [], 'hubspot'),
      intention('b', 'crm.contacts_export', 'export', '', 'Export CRM contacts in bulk for a marketing campaign.', [], 'hubspot'),
    ]);
    const c = new LexicalClassifier(index);
    const tie = c.classify(call('crm_contacts', { region: 'emea' }));
    expect(tie.signals.margin).toBe(0);
    expect(tie.decision.kind).toBe('intention');
    expect(tie.confidence).toBeLessThanOrEqual(0.5);
    expect(tie.confident).toBe(false);
    const clear = c.classify(call('crm.export_contacts', { format: 'csv' }));
    expect(clear.decision.label).toBe('crm.contacts_export');
    expect(clear.confident).toBe(true);
  });

  it('honours a custom ambient floor', () => {
    const strict = new LexicalClassifier(classifierFor().index, { ambientFloor: 0.99 });
    expect(strict.classify(call('stripe.retrieve_invoice')).decision.kind).toBe('ambient');
  });
});
