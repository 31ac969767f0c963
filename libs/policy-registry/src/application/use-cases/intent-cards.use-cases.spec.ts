import type { Caller } from '@igw/kernel';
import { Topics, type InstallIntentCardDto, type IntentCardEventV1 } from '@igw/contracts';
import { intentCardWorld } from '../testing/registry-world.fake';

const acme: Caller = { orgId: 'org_acme', keyId: 'key_1', scope: 'policy_write' };
const other: Caller = { orgId: 'org_other', keyId: 'key_2', scope: 'policy_write' };

const setup = intentCardWorld;

const card = (over: Partial<InstallIntentCardDto> = {}): InstallIntentCardDto =>
  ({
    name: 'CRM assistant',
    allowed_scope: { operations: ['crm.read', 'crm.search*'], resources: ['crm://customers/*'] },
    audiences: ['crm-api'],
    ...over,
  }) as InstallIntentCardDto;

describe('intent card use cases', () => {
  it('install a new card with defaults and a generated id, and emit intent_card.installed', async () => {
    const s = setup();
    const { card: installed, created } = await s.install.execute(acme, card());
    expect(created).toBe(true);
    expect(installed).toEqual({
      id: expect.stringMatching(/^card_[0-9a-f]{32}$/),
      name: 'CRM assistant',
      description: '',
      allowed_scope: { operations: ['crm.read', 'crm.search*'], resources: ['crm://customers/*'], forbidden_operations: [] },
      audiences: ['crm-api'],
      max_ttl_seconds: 3600,
      shadow: false,
      rules: [],
      version: 1,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
    });
    expect(s.repo.outbox.map((e) => [e.type, e.org_id, e.data])).toEqual([[Topics.IntentCardInstalled.name, 'org_acme', { ...installed, org_version: 1 }]]);
  });

  it('replace an existing id in the same org: version + 1, created_at kept; another org gets its own card', async () => {
    const s = setup();
    await s.install.execute(acme, card({ id: 'crm' }));
    s.clock.advance(60_000);
    const second = await s.install.execute(acme, card({ id: 'crm', name: 'CRM v2', shadow: true }));
    expect(second.created).toBe(false);
    expect(second.card).toMatchObject({
      id: 'crm',
      name: 'CRM v2',
      shadow: true,
      version: 2,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:01:00.000Z',
    });
    const theirs = await s.install.execute(other, card({ id: 'crm' }));
    expect(theirs).toMatchObject({ created: true, card: { version: 1 } });
    expect((await s.get.execute(acme, 'crm')).name).toBe('CRM v2');
    expect(s.repo.outbox.map((e) => (e.data as IntentCardEventV1).org_version)).toEqual([1, 2, 1]);
  });

  it('refuse a card whose rules are wrong, naming every offending path, and store nothing', async () => {
    const s = setup();
    const bad = card({
      allowed_scope: { operations: ['crm.[ab]'], resources: ['*'] },
      rules: [
        { id: 'ok', when: 'action.operation == "crm.export" && size(action.arguments) > 2', decision: { kind: 'approval' } },
        { id: 'ok', when: 'true', decision: { kind: 'deny' } },
        { id: 'broken', when: 'action.operation ==', decision: { kind: 'substitute' } },
      ],
    } as Partial<InstallIntentCardDto>);
    await expect(s.install.execute(acme, bad)).rejects.toMatchObject({
      kind: 'invalid',
      code: 'invalid_request',
      extra: {
        details: [
          expect.objectContaining({ path: 'allowed_scope.operations[0]' }),
          expect.objectContaining({ path: 'rules[1].id' }),
          expect.objectContaining({ path: 'rules[2].when' }),
          expect.objectContaining({ path: 'rules[2].decision.replacement_action' }),
        ],
      },
    });
    expect(s.repo.rows.size).toBe(0);
    expect(s.repo.outbox).toEqual([]);
  });

  it('keep rules in order with only the fields given', async () => {
    const s = setup();
    const rules = [
      { id: 'redact', when: 'context.user in ["a","b"]', decision: { kind: 'allow_with_redact', redact_fields: ['email'], message: undefined } },
      { id: 'crm', when: 'mandate.scope.operations.exists(o, o.startsWith("crm."))', decision: { kind: 'allow' } },
    ];
    const { card: installed } = await s.install.execute(acme, card({ rules } as Partial<InstallIntentCardDto>));
    expect(installed.rules).toEqual([
      { id: 'redact', when: 'context.user in ["a","b"]', decision: { kind: 'allow_with_redact', redact_fields: ['email'] } },
      { id: 'crm', when: 'mandate.scope.operations.exists(o, o.startsWith("crm."))', decision: { kind: 'allow' } },
    ]);
  });

  it('delete a card with an intent_card.deleted event; missing or foreign ids are 404', async () => {
    const s = setup();
    await s.install.execute(acme, card({ id: 'crm' }));
    await expect(s.remove.execute(other, 'crm')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.get.execute(other, 'crm')).rejects.toMatchObject({ kind: 'not_found' });
    await s.remove.execute(acme, 'crm');
    await expect(s.get.execute(acme, 'crm')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.remove.execute(acme, 'crm')).rejects.toMatchObject({ kind: 'not_found' });
    const last = s.repo.outbox.at(-1)!;
    expect(last.type).toBe(Topics.IntentCardDeleted.name);
    expect(last.data).toMatchObject({ id: 'crm', deleted: true, version: 2, org_version: 2 });
  });

  it('list newest first with a cursor', async () => {
    const s = setup();
    for (const id of ['a', 'b', 'c']) {
      await s.install.execute(acme, card({ id }));
      s.clock.advance(1000);
    }
    const first = await s.list.execute(acme, { limit: '2' });
    expect(first.data.map((c) => c.id)).toEqual(['c', 'b']);
    const second = await s.list.execute(acme, { limit: '2', cursor: first.next_cursor! });
    expect(second).toMatchObject({ next_cursor: null, data: [{ id: 'a' }] });
    await expect(s.list.execute(acme, { cursor: 'garbage!' })).rejects.toMatchObject({ extra: { details: [expect.objectContaining({ path: 'cursor' })] } });
  });
});
