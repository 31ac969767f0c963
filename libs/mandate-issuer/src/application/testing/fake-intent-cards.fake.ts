import type { IntentCardDto, PolicyRegistryApi } from '@igw/contracts';

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
 * Test double of the registry's `intentCard(orgId, id)`: cards installed per org (another org's
 * card is null, as the registry answers), every lookup recorded.
 */
export class FakeIntentCards implements Pick<PolicyRegistryApi, 'intentCard'> {
  readonly calls: { orgId: string; id: string }[] = [];
  private readonly cards = new Map<string, IntentCardDto>();

  install(orgId: string, card: IntentCardDto = intentCardDto()): this {
    this.cards.set(`${orgId}/${card.id}`, structuredClone(card));
    return this;
  }

  remove(orgId: string, id: string): this {
    this.cards.delete(`${orgId}/${id}`);
    return this;
  }

  async intentCard(orgId: string, id: string): Promise<IntentCardDto | null> {
    this.calls.push({ orgId, id });
    const card = this.cards.get(`${orgId}/${id}`);
    return card ? structuredClone(card) : null;
  }
}
