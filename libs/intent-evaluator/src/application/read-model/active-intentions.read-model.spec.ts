import type { IntentionEventV1, PolicyRegistryApi } from '@igw/contracts';
import { intentionsKey, type VersionBoard } from '@igw/events';
import { buildQuery } from '../../domain/classification';
import { ActiveIntentionsReadModel } from './active-intentions.read-model';

const intention = (id: string, label: string, status: 'draft' | 'active' | 'archived', orgVersion: number): IntentionEventV1 =>
  ({
    id,
    label,
    display_name: label,
    description: `Look up ${label.replace(/[._]/g, ' ')} records`,
    intent_class: 'lookup',
    status,
    approval_required: false,
    ttl_minutes: 15,
    data_elements: [],
    version: 1,
    org_version: orgVersion,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
  }) as IntentionEventV1;

class FakeBoard implements VersionBoard {
  versions = new Map<string, number>();
  down = false;
  async current(key: string) {
    if (this.down) throw new Error('redis down');
    return this.versions.get(key) ?? 0;
  }
  async advance(key: string, v: number) {
    this.versions.set(key, Math.max(v, this.versions.get(key) ?? 0));
  }
}

class FakeRegistry implements Pick<PolicyRegistryApi, 'activeIntentions' | 'orgsWith'> {
  version = 0;
  intentions: IntentionEventV1[] = [];
  calls = 0;
  down = false;
  async activeIntentions() {
    this.calls++;
    if (this.down) throw new Error('registry down');
    return { version: this.version, intentions: this.intentions.filter((i) => i.status === 'active') };
  }
  async orgsWith() {
    if (this.down) throw new Error('registry down');
    return { org_ids: this.version > 0 ? ['org_1'] : [] };
  }
}

function setup() {
  const board = new FakeBoard();
  const registry = new FakeRegistry();
  const model = new ActiveIntentionsReadModel(board, registry);
  /** What the registry does on a change: commit, then advance the board, then publish the event. */
  const change = async (e: IntentionEventV1) => {
    registry.intentions = [...registry.intentions.filter((i) => i.id !== e.id), e];
    registry.version = e.org_version;
    await board.advance(intentionsKey('org_1'), e.org_version);
    return e;
  };
  return { board, registry, model, change };
}

const classify = async (model: ActiveIntentionsReadModel, toolName: string) => (await model.forOrg('org_1')).classifier.classify({ toolName }).decision.label;

describe('ActiveIntentionsReadModel', () => {
  it('a publish decides the very next call even before its event arrives', async () => {
    const t = setup();
    expect(await classify(t.model, 'crm_customer_lookup')).toBe('ambient');
    await t.change(intention('int_1', 'crm.customer_lookup', 'active', 1));
    expect(await classify(t.model, 'crm_customer_lookup')).toBe('crm.customer_lookup');
    await t.change(intention('int_1', 'crm.customer_lookup', 'archived', 2));
    expect(await classify(t.model, 'crm_customer_lookup')).toBe('ambient');
  });

  it('follows events one version at a time without asking the registry again', async () => {
    const t = setup();
    await t.model.forOrg('org_1');
    const calls = t.registry.calls;
    const e = await t.change(intention('int_2', 'billing.invoice_lookup', 'active', 1));
    t.model.apply('org_1', e);
    expect(await classify(t.model, 'billing_invoice_lookup')).toBe('billing.invoice_lookup');
    expect(t.registry.calls).toBe(calls);
    // A duplicate or an old event changes nothing.
    t.model.apply('org_1', intention('int_2', 'billing.invoice_lookup', 'archived', 1));
    expect(await classify(t.model, 'billing_invoice_lookup')).toBe('billing.invoice_lookup');
  });

  it('a gap in events falls back to a refresh', async () => {
    const t = setup();
    await t.model.forOrg('org_1');
    await t.change(intention('int_3', 'hr.report', 'active', 1));
    const e2 = await t.change(intention('int_4', 'crm.customer_lookup', 'active', 2));
    t.model.apply('org_1', e2); // version 2 arrives before version 1: ignored
    const org = await t.model.forOrg('org_1');
    expect(org.version).toBe(2);
    expect(org.intention('int_3')?.label).toBe('hr.report');
  });

  it('fails closed when the board or the registry cannot be reached', async () => {
    const t = setup();
    t.board.down = true;
    await expect(t.model.forOrg('org_1')).rejects.toMatchObject({ code: 'unavailable' });
    t.board.down = false;
    t.registry.down = true;
    await t.board.advance(intentionsKey('org_1'), 3);
    await expect(t.model.forOrg('org_1')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('lists its org, its active intentions and their lexical top-k (what the classification cascade reads)', async () => {
    const t = setup();
    await t.change(intention('int_6', 'crm.customer_lookup', 'active', 1));
    await t.change(intention('int_7', 'billing.invoice_lookup', 'active', 2));
    await t.change(intention('int_8', 'hr.report', 'draft', 3));
    const org = await t.model.forOrg('org_1');
    expect(org.orgId).toBe('org_1');
    expect(org.size).toBe(2);
    expect(
      org
        .documents()
        .map((d) => `${d.label}@${d.version}`)
        .sort(),
    ).toEqual(['billing.invoice_lookup@1', 'crm.customer_lookup@1']);
    const hits = org.search(buildQuery({ toolName: 'billing_invoice_lookup' }), 1);
    expect(hits.map((h) => h.doc.id)).toEqual(['int_7']);
  });

  it('refreshes once for concurrent calls', async () => {
    const t = setup();
    await t.change(intention('int_5', 'crm.customer_lookup', 'active', 1));
    await Promise.all(Array.from({ length: 20 }, () => t.model.forOrg('org_1')));
    expect(t.registry.calls).toBe(1);
  });
});
