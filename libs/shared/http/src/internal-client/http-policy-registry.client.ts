import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { ActiveIntentionsDto, IntentCardsSnapshotDto, type IntentCardDto, type PolicyRegistryApi } from '@igw/contracts';
import { DependencyUnavailableError } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

const ACTIVE_INTENTIONS = '/internal/intentions/active';
const INTENT_CARDS = '/internal/intent-cards';

/**
 * Distributed mode: PolicyRegistryApi over the registry's internal routes. The org travels as the
 * caller (the routes read the caller's org only), under the calling service's own key id with
 * read_only. A snapshot feeds a read model, so it is validated like an event payload: a body that
 * does not match ActiveIntentionsDto / IntentCardsSnapshotDto is treated as an outage (503),
 * never cached.
 */
export class HttpPolicyRegistryClient implements PolicyRegistryApi {
  constructor(
    private readonly http: InternalServiceClient,
    /** Who is asking, for the registry's logs, e.g. `svc:intent-evaluator`. */
    private readonly serviceKeyId: string,
  ) {}

  /** 200 → the validated snapshot; any other status below 500 → InternalServiceResponseError (a bug, 500). */
  activeIntentions(orgId: string): Promise<ActiveIntentionsDto> {
    return this.snapshot(ActiveIntentionsDto, ACTIVE_INTENTIONS, orgId);
  }

  /** 200 → the validated snapshot of the org's cards; any other status below 500 → InternalServiceResponseError (a bug, 500). */
  intentCards(orgId: string): Promise<IntentCardsSnapshotDto> {
    return this.snapshot(IntentCardsSnapshotDto, INTENT_CARDS, orgId);
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

  async close(): Promise<void> {
    await this.http.close();
  }

  /** GET `path` for the org and validate the body as `type`; an invalid body is an outage. */
  private async snapshot<T extends object>(type: new () => T, path: string, orgId: string): Promise<T> {
    const res = await this.http.request('GET', path, { orgId, keyId: this.serviceKeyId, scope: 'read_only' });
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, `GET ${path}`, res);
    if (res.body === null || typeof res.body !== 'object' || Array.isArray(res.body)) {
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${path} answered a body that is not an object`));
    }
    const dto = plainToInstance(type, res.body);
    const errors = validateSync(dto, { forbidUnknownValues: true });
    if (errors.length > 0) {
      const why = firstViolation(errors[0]!);
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${path} answered an invalid body: ${why}`));
    }
    return dto;
  }
}

/** `intentions.1.status must be one of …`: the first leaf of a nested validation error. */
function firstViolation(error: ValidationError, parent = ''): string {
  const child = error.children?.[0];
  if (child) return firstViolation(child, `${parent}${error.property}.`);
  // The constraint's message starts with the property's own name.
  return `${parent}${Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`}`;
}
