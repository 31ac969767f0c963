import type { Caller } from '@igw/kernel';
import type { CreateIntentionDto, IntentionChangeDto } from '@igw/contracts';
import { intentionWorld } from '../testing/registry-world.fake';
import { PreviewIntentionChangesUseCase } from './preview-intention-changes.use-case';

const acme: Caller = { orgId: 'org_acme', keyId: 'key_1', scope: 'policy_write' };
const other: Caller = { orgId: 'org_other', keyId: 'key_2', scope: 'policy_write' };
const body = (label: string, extra: Partial<CreateIntentionDto> = {}): CreateIntentionDto =>
  ({ label, intent_class: 'lookup', ...extra }) as CreateIntentionDto;

async function world() {
  const s = intentionWorld();
  const preview = new PreviewIntentionChangesUseCase(s.repo, s.clock);
  const published = await s.create.execute(acme, body('crm.lookup', { tools: ['crm.get_contact'] }));
  await s.publish.execute(acme, published.id);
  const draft = await s.create.execute(acme, body('crm.export'));
  return { ...s, preview, published, draft };
}

const labels = (dto: { intentions: { label: string; status: string }[] }) => dto.intentions.map((i) => `${i.label}:${i.status}`).sort();

describe('PreviewIntentionChangesUseCase', () => {
  it('applies creates, updates and archives over the active set, stores nothing and emits nothing', async () => {
    const s = await world();
    const outbox = s.repo.outbox.length;
    const changes: IntentionChangeDto[] = [
      { action: 'create', intention: body('billing.refund', { tools: ['stripe.create_refund'] }) },
      { action: 'update', id: s.draft.id, intention: { description: 'Export contacts.' } },
      { action: 'archive', id: s.published.id },
    ];
    const result = await s.preview.execute(acme.orgId, changes);
    expect(labels(result)).toEqual(['billing.refund:active', 'crm.export:active']);
    expect(result.intentions.find((i) => i.label === 'billing.refund')).toMatchObject({ id: 'int_draft_0', tools: ['stripe.create_refund'], version: 1 });
    expect(result.intentions.find((i) => i.label === 'crm.export')).toMatchObject({ description: 'Export contacts.', version: 2 });
    expect(result.version).toBe((await s.active.execute(acme.orgId)).version);
    // Nothing changed for real.
    expect(s.repo.outbox).toHaveLength(outbox);
    expect(labels(await s.active.execute(acme.orgId))).toEqual(['crm.lookup:active']);
  });

  it('refuses as the real writes do, naming the field under the change', async () => {
    const s = await world();
    const refused = (changes: IntentionChangeDto[]) =>
      s.preview.execute(acme.orgId, changes).catch((e: { kind: string; code: string; extra: { details?: { path: string; message: string }[] } }) => e);
    expect(
      await refused([
        { action: 'archive', id: s.published.id },
        { action: 'create', intention: body('ok.one', { tools: ['bad tool'] }) },
      ]),
    ).toMatchObject({
      kind: 'invalid',
      extra: { details: [{ path: 'changes[1].intention.tools[0]' }] },
    });
    const ttl = await refused([{ action: 'update', id: s.published.id, intention: { ttl_minutes: 0 } }]);
    expect(ttl).toMatchObject({
      kind: 'invalid',
      extra: { details: [{ path: 'changes[0].intention.ttl_minutes', message: expect.stringMatching(/^changes\[0\]\.intention\.ttl_minutes must be/) }] },
    });
    expect(await refused([{ action: 'update', id: s.published.id, intention: {} }])).toMatchObject({
      kind: 'invalid',
      extra: { details: [{ path: 'changes[0].intention' }] },
    });
    expect(await refused([{ action: 'create', intention: body('crm.lookup') }])).toMatchObject({ kind: 'conflict', code: 'label_conflict' });
    await s.archive.execute(acme, s.draft.id);
    expect(await refused([{ action: 'update', id: s.draft.id, intention: { description: 'x' } }])).toMatchObject({
      kind: 'conflict',
      code: 'invalid_transition',
    });
  });

  it("never finds another org's intention (404 naming the change's id)", async () => {
    const s = await world();
    await expect(s.preview.execute(other.orgId, [{ action: 'archive', id: s.published.id }])).rejects.toMatchObject({
      kind: 'not_found',
      extra: { details: [{ path: 'changes[0].id' }] },
    });
  });
});
