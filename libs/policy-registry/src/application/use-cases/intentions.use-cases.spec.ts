import type { Caller } from '@igw/kernel';
import { Topics, type CreateIntentionDto, type IntentionEventV1 } from '@igw/contracts';
import { DRAFT_CRM_LOOKUP } from '@igw/contracts/testing';
import { InMemoryIntentionRepository } from '../testing/in-memory-repositories.fake';
import { intentionWorld } from '../testing/registry-world.fake';

const acme: Caller = { orgId: 'org_acme', keyId: 'key_1', scope: 'policy_write' };
const other: Caller = { orgId: 'org_other', keyId: 'key_2', scope: 'admin' };

const setup = intentionWorld;

const body = (label: string, extra: Partial<CreateIntentionDto> = {}): CreateIntentionDto =>
  ({ label, intent_class: 'lookup', ...extra }) as CreateIntentionDto;
const payloads = (repo: InMemoryIntentionRepository) => repo.outbox.map((e) => ({ type: e.type, org: e.org_id, data: e.data as IntentionEventV1 }));

describe('intention use cases', () => {
  it('create a draft with defaults and emit intention.created with the org version', async () => {
    const s = setup();
    const created = await s.create.execute(acme, body('crm.lookup', { status: 'active', id: 'mine', version: 9 } as Partial<CreateIntentionDto>));
    expect(created).toEqual({
      id: expect.stringMatching(/^int_[0-9a-f]{32}$/),
      ...DRAFT_CRM_LOOKUP,
      version: 1,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
    });
    expect(payloads(s.repo)).toEqual([{ type: Topics.IntentionCreated.name, org: 'org_acme', data: { ...created, org_version: 1 } }]);
  });

  it('refuse a label the org already uses with 409 label_conflict, but not in another org', async () => {
    const s = setup();
    await s.create.execute(acme, body('crm.lookup'));
    await expect(s.create.execute(acme, body('crm.lookup', { intent_class: 'export' }))).rejects.toMatchObject({ kind: 'conflict', code: 'label_conflict' });
    await expect(s.create.execute(other, body('crm.lookup'))).resolves.toMatchObject({ label: 'crm.lookup' });
    expect(s.repo.outbox).toHaveLength(2);
  });

  it('publish a draft once: a second publish answers the same intention and emits nothing', async () => {
    const s = setup();
    const created = await s.create.execute(acme, body('crm.lookup'));
    s.clock.advance(60_000);
    const published = await s.publish.execute(acme, created.id);
    expect(published).toMatchObject({ status: 'active', version: 2, updated_at: '2026-03-01T10:01:00.000Z', created_at: created.created_at });
    expect(await s.publish.execute(acme, created.id)).toEqual(published);
    expect(payloads(s.repo).map((p) => [p.type, p.data.version, p.data.org_version])).toEqual([
      [Topics.IntentionCreated.name, 1, 1],
      [Topics.IntentionPublished.name, 2, 2],
    ]);
  });

  it('archive draft or active, idempotently; an archived intention cannot be published', async () => {
    const s = setup();
    const a = await s.create.execute(acme, body('a'));
    const b = await s.create.execute(acme, body('b'));
    await s.publish.execute(acme, b.id);
    expect(await s.archive.execute(acme, a.id)).toMatchObject({ status: 'archived', version: 2 });
    expect(await s.archive.execute(acme, b.id)).toMatchObject({ status: 'archived', version: 3 });
    expect(await s.archive.execute(acme, b.id)).toMatchObject({ status: 'archived', version: 3 });
    await expect(s.publish.execute(acme, a.id)).rejects.toMatchObject({ kind: 'conflict', code: 'invalid_transition' });
    expect(payloads(s.repo).map((p) => p.type)).toEqual([
      Topics.IntentionCreated.name,
      Topics.IntentionCreated.name,
      Topics.IntentionPublished.name,
      Topics.IntentionArchived.name,
      Topics.IntentionArchived.name,
    ]);
    expect(payloads(s.repo).map((p) => p.data.org_version)).toEqual([1, 2, 3, 4, 5]);
  });

  it('create with tools: stored without duplicates, in the view and the event', async () => {
    const s = setup();
    const created = await s.create.execute(acme, body('crm.lookup', { tools: ['crm.get', 'crm.search_*', 'crm.get'] }));
    expect(created.tools).toEqual(['crm.get', 'crm.search_*']);
    expect(payloads(s.repo)[0]?.data.tools).toEqual(['crm.get', 'crm.search_*']);
    await expect(s.create.execute(acme, body('bad', { tools: ['a*'.repeat(33)] }))).rejects.toMatchObject({
      code: 'invalid_request',
      extra: { details: [{ path: 'tools[0]', message: 'tools[0] must use at most 32 wildcards' }] },
    });
  });

  it('update: the given fields, version + 1, intention.updated on the org counter; same values change nothing', async () => {
    const s = setup();
    const created = await s.create.execute(acme, body('crm.lookup'));
    await s.publish.execute(acme, created.id);
    s.clock.advance(60_000);
    const updated = await s.update.execute(acme, created.id, { tools: ['crm.**'], ttl_minutes: 30, label: 'renamed' } as never);
    expect(updated).toEqual({ ...created, status: 'active', tools: ['crm.**'], ttl_minutes: 30, version: 3, updated_at: '2026-03-01T10:01:00.000Z' });
    expect(await s.update.execute(acme, created.id, { tools: ['crm.**'] })).toEqual(updated);
    expect(payloads(s.repo).map((p) => [p.type, p.data.version, p.data.org_version])).toEqual([
      [Topics.IntentionCreated.name, 1, 1],
      [Topics.IntentionPublished.name, 2, 2],
      [Topics.IntentionUpdated.name, 3, 3],
    ]);
    expect(payloads(s.repo)[2]?.data).toEqual({ ...updated, org_version: 3 });
    expect((await s.active.execute('org_acme')).intentions[0]).toMatchObject({ tools: ['crm.**'], version: 3 });
  });

  it('update: nothing to change is a 400 naming the body, before any lookup; archived is 409; unknown is 404', async () => {
    const s = setup();
    const created = await s.create.execute(acme, body('crm.lookup'));
    for (const empty of [{}, undefined, { label: 'x', status: 'active' }]) {
      await expect(s.update.execute(acme, 'int_missing', empty as never)).rejects.toMatchObject({
        code: 'invalid_request',
        extra: { details: [{ path: 'body', message: expect.any(String) }] },
      });
    }
    await expect(s.update.execute(acme, 'int_missing', { description: 'x' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.update.execute(other, created.id, { description: 'x' })).rejects.toMatchObject({ kind: 'not_found' });
    await s.archive.execute(acme, created.id);
    await expect(s.update.execute(acme, created.id, { description: 'x' })).rejects.toMatchObject({ kind: 'conflict', code: 'invalid_transition' });
    expect(s.repo.outbox).toHaveLength(2);
  });

  it("answer 404 for another org's intention on every route", async () => {
    const s = setup();
    const mine = await s.create.execute(acme, body('crm.lookup'));
    for (const attempt of [() => s.get.execute(other, mine.id), () => s.publish.execute(other, mine.id), () => s.archive.execute(other, mine.id)]) {
      await expect(attempt()).rejects.toMatchObject({ kind: 'not_found', code: 'not_found' });
    }
    expect((await s.list.execute(other, {})).data).toEqual([]);
    expect((await s.get.execute(acme, mine.id)).status).toBe('draft');
  });

  it('list newest first, filter by status, and page with a cursor', async () => {
    const s = setup();
    const ids: string[] = [];
    for (const label of ['a', 'b', 'c', 'd', 'e']) {
      ids.push((await s.create.execute(acme, body(label))).id);
      s.clock.advance(1000);
    }
    await s.publish.execute(acme, ids[1]!);
    const first = await s.list.execute(acme, { limit: '2' });
    expect(first.data.map((i) => i.label)).toEqual(['e', 'd']);
    const second = await s.list.execute(acme, { limit: '2', cursor: first.next_cursor! });
    expect(second.data.map((i) => i.label)).toEqual(['c', 'b']);
    const third = await s.list.execute(acme, { limit: '2', cursor: second.next_cursor! });
    expect(third).toMatchObject({ next_cursor: null });
    expect(third.data.map((i) => i.label)).toEqual(['a']);
    expect((await s.list.execute(acme, { status: 'active' })).data.map((i) => i.label)).toEqual(['b']);
    await expect(s.list.execute(acme, { status: 'live' })).rejects.toMatchObject({
      code: 'invalid_request',
      extra: { details: [{ path: 'status', message: expect.any(String) }] },
    });
    await expect(s.list.execute(acme, { limit: '500' })).rejects.toMatchObject({ extra: { details: [expect.objectContaining({ path: 'limit' })] } });
  });
});
