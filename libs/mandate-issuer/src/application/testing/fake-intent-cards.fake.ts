import type { IntentCardDto, IntentCardsSnapshotDto, PolicyRegistryApi } from '@igw/contracts';

/** An installed intent card as the registry answers it; `extra` overrides any field. */
export function intentCardDto(extra: Partial<IntentCardDto> = {}): IntentCardDto {
  return {
    id: 'crm',
    name: 'CRM assistant',
    description: '',
    allowed_scope: { operations: ['crm.contacts.*'], resources: ['crm://contacts/**'], forbidden_operations: ['crm.contacts.delete'] },
    audiences: ['crm-api'],
    max_ttl_seconds: 3600,
    shadow: false,
    rules: [],
    version: 1,
    created_at: '2026-03-01T00:00:00.000Z',
    updated_at: '2026-03-01T00:00:00.000Z',
    ...extra,
  };
}

/**
 * Test double of the registry's `intentCard(orgId, id)` and `intentCards(orgId)`: cards installed
 * per org (another org's card is null, as the registry answers), every single-card lookup
 * recorded. Each install or removal of an existing card counts as one change of the org's cards
 * counter, as in the registry.
 */
export class FakeIntentCards implements Pick<PolicyRegistryApi, 'intentCard' | 'intentCards'> {
  readonly calls: { orgId: string; id: string }[] = [];
  private readonly cards = new Map<string, IntentCardDto>();
  private readonly versions = new Map<string, number>();

  install(orgId: string, card: IntentCardDto = intentCardDto()): this {
    this.cards.set(`${orgId}/${card.id}`, structuredClone(card));
    this.bump(orgId);
    return this;
  }

  remove(orgId: string, id: string): this {
    if (this.cards.delete(`${orgId}/${id}`)) this.bump(orgId);
    return this;
  }

  async intentCard(orgId: string, id: string): Promise<IntentCardDto | null> {
    this.calls.push({ orgId, id });
    const card = this.cards.get(`${orgId}/${id}`);
    return card ? structuredClone(card) : null;
  }

  /** The org's cards in event form stamped with its counter, newest first like the registry. */
  async intentCards(orgId: string): Promise<IntentCardsSnapshotDto> {
    const version = this.versions.get(orgId) ?? 0;
    const cards = [...this.cards.entries()]
      .filter(([key]) => key.startsWith(`${orgId}/`))
      .map(([, card]) => ({ ...structuredClone(card), org_version: version }))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { version, cards };
  }

  private bump(orgId: string): void {
    this.versions.set(orgId, (this.versions.get(orgId) ?? 0) + 1);
  }
}
