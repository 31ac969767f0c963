import { ActiveIntentionsDto, IntentCardsSnapshotDto, type IntentCardDto, type OrgIdsDto, type PolicyRegistryApi, type RegistryCounter } from '@igw/contracts';
import { DependencyUnavailableError } from '@igw/kernel';
import { InternalServiceResponseError } from './internal-service.client';
import { ServiceKeyClient } from './service-key.client';

const ACTIVE_INTENTIONS = '/internal/intentions/active';
const INTENT_CARDS = '/internal/intent-cards';

/**
 * Distributed mode: PolicyRegistryApi over the registry's internal routes. The org travels as the
 * caller (the routes read the caller's org only), under the calling service's own key id with
 * read_only. A snapshot feeds a read model, so it is validated like an event payload: a body that
 * does not match ActiveIntentionsDto / IntentCardsSnapshotDto is treated as an outage (503),
 * never cached.
 */
export class HttpPolicyRegistryClient extends ServiceKeyClient implements PolicyRegistryApi {
  /** 200 → the validated snapshot; any other status below 500 → InternalServiceResponseError (a bug, 500). */
  activeIntentions(orgId: string): Promise<ActiveIntentionsDto> {
    return this.read(ActiveIntentionsDto, ACTIVE_INTENTIONS, orgId);
  }

  /** 200 → the validated snapshot of the org's cards; any other status below 500 → InternalServiceResponseError (a bug, 500). */
  intentCards(orgId: string): Promise<IntentCardsSnapshotDto> {
    return this.read(IntentCardsSnapshotDto, INTENT_CARDS, orgId);
  }

  orgsWith(counter: RegistryCounter): Promise<OrgIdsDto> {
    return this.orgIds(`/internal/orgs?with=${counter}`);
  }

  /** 200 → the card; 404 → null (no such card in this org); anything else below 500 → InternalServiceResponseError. */
  async intentCard(orgId: string, id: string): Promise<IntentCardDto | null> {
    const path = `/internal/intent-cards/${encodeURIComponent(id)}`;
    const res = await this.http.request<IntentCardDto>('GET', path, { orgId, keyId: this.serviceKeyId, scope: 'read_only' });
    if (res.status === 404) return null;
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, `GET ${path}`, res);
    const card = res.body as Partial<IntentCardDto> | null;
    if (!card || typeof card.id !== 'string' || card.id !== id || typeof card.allowed_scope !== 'object' || card.allowed_scope === null) {
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${path} answered a body that is not an intent card`));
    }
    return card as IntentCardDto;
  }
}
