import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { ActiveIntentionsDto, type IntentCardDto, type PolicyRegistryApi } from '@igw/contracts';
import { DependencyUnavailableError } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

const ACTIVE_INTENTIONS = '/internal/intentions/active';

/**
 * Distributed mode: PolicyRegistryApi over the registry's internal route. The org travels as the
 * caller (the route reads the caller's org only), under the calling service's own key id with
 * read_only. The answer feeds a read model, so it is validated like an event payload: a body
 * that does not match ActiveIntentionsDto is treated as an outage (503), never cached.
 */
export class HttpPolicyRegistryClient implements PolicyRegistryApi {
  constructor(
    private readonly http: InternalServiceClient,
    /** Who is asking, for the registry's logs, e.g. `svc:intent-evaluator`. */
    private readonly serviceKeyId: string,
  ) {}

  /** 200 → the validated snapshot; any other status below 500 → InternalServiceResponseError (a bug, 500). */
  async activeIntentions(orgId: string): Promise<ActiveIntentionsDto> {
    const res = await this.http.request('GET', ACTIVE_INTENTIONS, { orgId, keyId: this.serviceKeyId, scope: 'read_only' });
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, `GET ${ACTIVE_INTENTIONS}`, res);
    if (res.body === null || typeof res.body !== 'object' || Array.isArray(res.body)) {
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${ACTIVE_INTENTIONS} answered a body that is not an object`));
    }
    const dto = plainToInstance(ActiveIntentionsDto, res.body);
    const errors = validateSync(dto, { forbidUnknownValues: true });
    if (errors.length > 0) {
      const why = firstViolation(errors[0]!);
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${ACTIVE_INTENTIONS} answered an invalid body: ${why}`));
    }
    return dto;
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
}

/** `intentions.1.status must be one of …`: the first leaf of a nested validation error. */
function firstViolation(error: ValidationError, parent = ''): string {
  const child = error.children?.[0];
  if (child) return firstViolation(child, `${parent}${error.property}.`);
  // The constraint's message starts with the property's own name.
  return `${parent}${Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`}`;
}
