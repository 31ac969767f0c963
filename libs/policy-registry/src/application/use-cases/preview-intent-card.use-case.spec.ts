import type { InstallIntentCardDto } from '@igw/contracts';
import type { IntentCard } from '../../domain/intent-card';
import type { IntentCardRepository } from '../ports/intent-card.repository.port';
import { PreviewIntentCardUseCase } from './preview-intent-card.use-case';

const NOW = new Date('2026-11-27T12:00:00Z');
const stored: IntentCard = {
  id: 'crm',
  orgId: 'org_1',
  name: 'CRM',
  description: '',
  allowedScope: { operations: ['crm.**'], resources: ['crm://**'], forbidden_operations: [] },
  audiences: ['crm-api'],
  maxTtlSeconds: 900,
  shadow: false,
  rules: [],
  version: 4,
  createdAt: new Date('2026-11-01T00:00:00Z'),
  updatedAt: new Date('2026-11-01T00:00:00Z'),
};

function preview(cards: IntentCard[] = [stored]) {
  const repo = { snapshot: async () => ({ version: 9, cards }) } as unknown as IntentCardRepository;
  return new PreviewIntentCardUseCase(repo, { now: () => NOW });
}
const draft = (over: Record<string, unknown> = {}) =>
  ({
    id: 'crm',
    name: 'CRM',
    allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://**'] },
    audiences: ['crm-api'],
    ...over,
  }) as InstallIntentCardDto;

describe('PreviewIntentCardUseCase', () => {
  it('installs the draft over the card with its id (version + 1), stored nowhere, the draft first', async () => {
    const other = { ...stored, id: 'hr' };
    const snapshot = await preview([stored, other]).execute('org_1', draft());
    expect(snapshot.version).toBe(9);
    expect(snapshot.cards.map((c) => [c.id, c.version, c.org_version])).toEqual([
      ['crm', 5, 10],
      ['hr', 4, 10],
    ]);
    expect(snapshot.cards[0]?.allowed_scope.operations).toEqual(['crm.contacts.read']);
  });

  it('adds a card with a new id', async () => {
    const snapshot = await preview().execute('org_1', draft({ id: 'billing' }));
    expect(snapshot.cards.map((c) => c.id)).toEqual(['billing', 'crm']);
  });

  it('refuses what the install refuses, the path under card.', async () => {
    const bad = draft({ rules: [{ id: 'r1', when: 'action.operation ==', decision: { kind: 'deny' } }] });
    await expect(preview().execute('org_1', bad)).rejects.toMatchObject({
      kind: 'invalid',
      extra: { details: [expect.objectContaining({ path: 'card.rules[0].when' })] },
    });
  });
});
