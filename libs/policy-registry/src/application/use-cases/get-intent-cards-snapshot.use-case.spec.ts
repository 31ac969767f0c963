import type { Caller } from '@igw/kernel';
import type { InstallIntentCardDto } from '@igw/contracts';
import type { IntentCard } from '../../domain/intent-card';
import type { IntentCardRepository } from '../ports/intent-card.repository.port';
import { intentCardWorld } from '../testing/registry-world.fake';
import { GetIntentCardsSnapshotUseCase } from './get-intent-cards-snapshot.use-case';

const acme: Caller = { orgId: 'org_acme', keyId: 'key_1', scope: 'policy_write' };
const other: Caller = { orgId: 'org_other', keyId: 'key_2', scope: 'policy_write' };
const card = (id: string, over: Partial<InstallIntentCardDto> = {}): InstallIntentCardDto =>
  ({
    id,
    name: `card ${id}`,
    allowed_scope: { operations: ['crm.read'], resources: ['crm://customers/*'] },
    audiences: ['crm-api'],
    ...over,
  }) as InstallIntentCardDto;

describe('GetIntentCardsSnapshotUseCase', () => {
  const setup = intentCardWorld;

  it('answers version 0 and no cards for an org without cards', async () => {
    expect(await setup().snapshot.execute('org_none')).toEqual({ version: 0, cards: [] });
  });

  it('answers exactly the installed cards, newest first, in event form stamped with the cards counter', async () => {
    const s = setup();
    await s.install.execute(acme, card('a'));
    s.clock.advance(1000);
    const b = (await s.install.execute(acme, card('b'))).card;
    s.clock.advance(1000);
    await s.install.execute(acme, card('gone'));
    s.clock.advance(1000);
    const a2 = (await s.install.execute(acme, card('a', { name: 'A v2', shadow: true }))).card;
    await s.install.execute(other, card('elsewhere'));
    await s.remove.execute(acme, 'gone');

    // 4 installs + 1 delete in org_acme; the deleted card is absent, another org's never appears.
    const snap = await s.snapshot.execute('org_acme');
    expect(snap).toEqual({
      version: 5,
      // Replacing `a` kept its created_at, so `b` is the newest.
      cards: [
        { ...b, org_version: 5 },
        { ...a2, org_version: 5 },
      ],
    });
    expect(snap.cards.map((c) => c.id)).toEqual(['b', 'a']);
    expect(snap.cards.every((c) => !('deleted' in c))).toBe(true);
    expect(await s.snapshot.execute('org_other')).toEqual({ version: 1, cards: [expect.objectContaining({ id: 'elsewhere', org_version: 1 })] });
  });

  it('maps what the repository snapshot holds, with the version it read', async () => {
    const stored: IntentCard = {
      orgId: 'org_acme',
      id: 'crm',
      name: 'CRM',
      description: 'd',
      allowedScope: { operations: ['crm.read'], resources: ['*'], forbidden_operations: ['crm.delete'] },
      audiences: ['crm-api'],
      maxTtlSeconds: 600,
      shadow: false,
      rules: [{ id: 'r', when: 'true', decision: { kind: 'deny' } }] as IntentCard['rules'],
      version: 3,
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      updatedAt: new Date('2026-01-02T00:00:00.000Z'),
    };
    const calls: string[] = [];
    const repo = {
      snapshot: async (orgId: string) => {
        calls.push(orgId);
        return { version: 7, cards: [stored] };
      },
    } as Pick<IntentCardRepository, 'snapshot'> as IntentCardRepository;
    expect(await new GetIntentCardsSnapshotUseCase(repo).execute('org_acme')).toEqual({
      version: 7,
      cards: [
        {
          id: 'crm',
          name: 'CRM',
          description: 'd',
          allowed_scope: { operations: ['crm.read'], resources: ['*'], forbidden_operations: ['crm.delete'] },
          audiences: ['crm-api'],
          max_ttl_seconds: 600,
          shadow: false,
          rules: [{ id: 'r', when: 'true', decision: { kind: 'deny' } }],
          version: 3,
          org_version: 7,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-02T00:00:00.000Z',
        },
      ],
    });
    expect(calls).toEqual(['org_acme']);
  });
});
