import type { IntentionEventV1, IntentionExampleEventV1 } from '@igw/contracts';
import type { VersionBoard } from '@igw/events';
import { ActiveIntentionsReadModel, type OrgIntentions } from '../../read-model/active-intentions.read-model';
import { ClassificationCascade } from '../classification-cascade';

const intention = (id: string, label: string, description: string, over: Partial<IntentionEventV1> = {}): IntentionEventV1 =>
  ({
    id,
    label,
    display_name: label,
    description,
    intent_class: 'lookup',
    status: 'active',
    approval_required: false,
    ttl_minutes: 15,
    data_elements: [],
    tools: [],
    version: 1,
    org_version: 1,
    created_at: '2026-11-27T10:00:00.000Z',
    updated_at: '2026-11-27T10:00:00.000Z',
    ...over,
  }) as IntentionEventV1;

const example = (id: string, intentionId: string, name: string, args: Record<string, unknown>, covered = true): IntentionExampleEventV1 =>
  ({
    id,
    intention_id: intentionId,
    tool_call: { name, arguments: args },
    covered,
    source: 'manual',
    approval_id: null,
    org_version: 1,
    created_at: '2026-11-27T10:00:00.000Z',
  }) as IntentionExampleEventV1;

const board: VersionBoard = { current: async () => 1, advance: async () => undefined };

async function org(intentions: IntentionEventV1[], examples: IntentionExampleEventV1[] = []): Promise<OrgIntentions> {
  const registry = { activeIntentions: async () => ({ version: 1, intentions, examples }), orgsWith: async () => ({ org_ids: [] }) };
  return new ActiveIntentionsReadModel(board, registry).forOrg('org_1');
}

const DB_READ = intention('i_read', 'db.readonly_query', 'Run read-only SQL queries (SELECT) against the analytics database to answer questions.', {
  intent_class: 'analysis',
});
const DB_FIX = intention('i_fix', 'db.data_fix', 'Fix individual wrong rows in the production database with targeted UPDATE or DELETE statements.', {
  intent_class: 'write',
});
const CONTACTS = intention('i_contacts', 'crm.contact_lookup', 'Look up a HubSpot contact by email to answer a question about a customer.');

describe('the cascade as stages: bindings, examples, the bar', () => {
  const cascade = new ClassificationCascade();

  it('a binding is certain, whatever the words; the bound intention is never matched to another tool', async () => {
    const bound = { ...CONTACTS, tools: ['hubspot.get_contact', 'hubspot.search_*'] };
    const o = await org([bound, DB_READ]);
    const r = await cascade.classify(o, { toolName: 'hubspot.search_objects', arguments: { q: 'x' } });
    expect(r.verdict).toMatchObject({ kind: 'certain', intentionId: 'i_contacts' });
    expect(r.evidence).toMatchObject({
      classification_method: 'binding',
      certain: true,
      matched_binding: 'hubspot.search_*',
      evaluation_layers_consulted: ['binding'],
    });
    // Same words, a tool outside the binding: the contact intention is not a candidate at all.
    const other = await cascade.classify(o, { toolName: 'salesforce.get_contact', arguments: { email: 'ada@example.com' } });
    expect(other.verdict.candidates.map((c) => c.intentionId)).not.toContain('i_contacts');
  });

  it('two equally specific bindings: uncertain, both candidates', async () => {
    const o = await org([
      { ...CONTACTS, tools: ['hubspot.g*'] },
      { ...DB_READ, tools: ['hubspot.*t'] },
    ]);
    const r = await cascade.classify(o, { toolName: 'hubspot.get_contact' });
    expect(r.verdict.kind).toBe('uncertain');
    expect(r.verdict.candidates.map((c) => c.intentionId).sort()).toEqual(['i_contacts', 'i_read']);
  });

  it('a name binding: crm.lookup_contact against an active crm.lookup is certain', async () => {
    const o = await org([intention('i1', 'crm.lookup', '')]);
    const r = await cascade.classify(o, { toolName: 'crm.lookup_contact', arguments: { id: 42 } });
    expect(r.verdict).toMatchObject({ kind: 'certain', intentionId: 'i1' });
    expect(r.evidence).toMatchObject({ classification_method: 'binding', matched_binding: 'crm.lookup' });
    expect((await cascade.classify(o, { toolName: 'crm.lookup_and_delete_contact' })).verdict.kind).not.toBe('certain');
  });

  it('a positive example makes a like call certain; a call that does something else is not', async () => {
    const o = await org(
      [DB_READ, DB_FIX],
      [example('e1', 'i_read', 'execute_sql', { project_id: 'p1', query: "select count(*) from users where plan = 'pro'" })],
    );
    const like = await cascade.classify(o, {
      toolName: 'execute_sql',
      arguments: { project_id: 'p2', query: "SELECT count(*) FROM users WHERE plan = 'team'" },
    });
    expect(like.verdict).toMatchObject({ kind: 'certain', intentionId: 'i_read' });
    expect(like.evidence).toMatchObject({ classification_method: 'example', certain: true, matched_examples: ['e1'] });
    const unlike = await cascade.classify(o, { toolName: 'execute_sql', arguments: { project_id: 'p1', query: "DELETE FROM users WHERE plan = 'pro'" } });
    expect(unlike.verdict.kind).not.toBe('certain');
  });

  it('a negative example rules its intention out of every stage', async () => {
    const o = await org([DB_READ], [example('e1', 'i_read', 'execute_sql', { query: 'delete from users where id = 7' }, false)]);
    const r = await cascade.classify(o, { toolName: 'execute_sql', arguments: { query: 'DELETE FROM users WHERE id = 1' } });
    expect(r.verdict.candidates.map((c) => c.intentionId)).not.toContain('i_read');
    expect(r.verdict.kind).toBe('ambient');
  });

  it('without a binding or an example, a lexical match under the bar is uncertain', async () => {
    const o = await org([DB_READ, DB_FIX, CONTACTS]);
    const r = await cascade.classify(o, { toolName: 'hubspot.get_contact', arguments: { email: 'ada@example.com' } });
    expect(r.evidence.classification_method).toBe('lexical');
    expect(r.verdict).toMatchObject({ kind: 'uncertain', intentionId: 'i_contacts' });
    const lowered = new ClassificationCascade(null, null, { certainAt: 0.5 });
    expect((await lowered.classify(o, { toolName: 'hubspot.get_contact', arguments: { email: 'ada@example.com' } })).verdict.kind).toBe('certain');
  });

  it("examples of an intention come and go with it: a draft's arrive with its publish, an archive drops them", async () => {
    const model = new ActiveIntentionsReadModel(board, {
      // The snapshot holds the draft's example, not the draft itself (only active intentions).
      activeIntentions: async () => ({ version: 1, intentions: [], examples: [example('e1', 'i_read', 'execute_sql', { query: 'select 1' })] }),
      orgsWith: async () => ({ org_ids: [] }),
    });
    const o = await model.forOrg('org_1');
    expect(o.examples.size).toBe(0);
    model.apply('org_1', { ...DB_READ, status: 'active', org_version: 2 });
    expect(o.examples.size).toBe(1);
    // An update of an active intention keeps its examples.
    model.apply('org_1', { ...DB_READ, description: 'changed', org_version: 3 });
    expect(o.examples.size).toBe(1);
    model.applyExample('org_1', { ...example('e2', 'i_read', 'execute_sql', { query: 'select 2' }), org_version: 4 });
    expect(o.examples.size).toBe(2);
    model.applyExample('org_1', { ...example('e2', 'i_read', 'execute_sql', {}), removed: true, org_version: 5 });
    expect(o.examples.size).toBe(1);
    model.apply('org_1', { ...DB_READ, status: 'archived', org_version: 6 });
    expect(o.examples.size).toBe(0);
  });
});

describe('the lexical stage: a weak "no intention"', () => {
  it('an ambient answer whose best candidate still has a fair chance goes to a human with it; a clear one is denied', async () => {
    const { LexicalStage, CANDIDATE_FLOOR } = await import('./lexical.stage');
    const stage = new LexicalStage(0.995, 20);
    const ambient = { kind: 'ambient', label: 'ambient', intentClass: 'other' } as const;
    const ctxWith = (probability: number) => ({
      org: {
        classifier: {
          classify: () => ({
            decision: ambient,
            confidence: 1 - probability,
            confident: 1 - probability >= 0.7,
            evidence: { supporting_evidence: [{ intent_label: 'crm.read', intention_id: 'i1', intent_class: 'lookup', probability }] },
            signals: { actionMatch: 1 },
          }),
        },
        intention: () => ({ id: 'i1', label: 'crm.read', intentClass: 'lookup' }),
      },
      input: { toolName: 't' },
      eligible: () => true,
      hits: () => [],
    });
    const weak = stage.run(ctxWith(CANDIDATE_FLOOR + 0.05) as never);
    expect(weak).toMatchObject({ decision: { kind: 'intention', intentionId: 'i1' }, certain: false });
    const clear = stage.run(ctxWith(CANDIDATE_FLOOR - 0.05) as never);
    expect(clear.decision.kind).toBe('ambient');
  });
});
