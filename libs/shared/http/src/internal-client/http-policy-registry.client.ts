import {
  ActiveIntentionsDto,
  IntentCardsSnapshotDto,
  type InstallIntentCardDto,
  type IntentCardDto,
  type IntentionChangeDto,
  type OrgIdsDto,
  type PolicyRegistryApi,
  type RegistryCounter,
  type TaughtExamplesDto,
  type TeachFromApprovalDto,
} from '@igw/contracts';
import { AppError, DependencyUnavailableError, type Caller } from '@igw/kernel';
import { InternalServiceResponseError, type InternalResponse } from './internal-service.client';
import { ServiceKeyClient } from './service-key.client';
import { validatedBody } from './validated-get';

const ACTIVE_INTENTIONS = '/internal/intentions/active';
const INTENT_CARDS = '/internal/intent-cards';
const TEACH = '/internal/intention-examples/teach';
const TAUGHT = '/internal/intention-examples/taught';
const PREVIEW = '/internal/intentions/preview';
const CARD_PREVIEW = '/internal/intent-cards/preview';

/** The registry's refusals of a teach that the operator's request caused: passed on as they are (404, 409, 400), not as a bug. */
const PASSED_ON: Partial<Record<number, AppError['kind']>> = { 400: 'invalid', 404: 'not_found', 409: 'conflict' };

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

  /**
   * 201 or 200 (a repeat) → the stored examples. 404 `intent_not_found`, 409 `example_limit` and
   * 400 are the operator's request refused, passed on as the same AppError; anything else below
   * 500 → InternalServiceResponseError. Written under the service's key id with policy_write (the
   * operator's scope was checked where the decision was made).
   */
  async teach(orgId: string, request: TeachFromApprovalDto): Promise<TaughtExamplesDto> {
    const res = await this.http.request<TaughtExamplesDto>('POST', TEACH, this.writer(orgId), request);
    if (res.status !== 201 && res.status !== 200) throw this.refusal(`POST ${TEACH}`, res);
    const body = res.body as Partial<TaughtExamplesDto> | null;
    const ok = body !== null && typeof body === 'object' && Array.isArray(body.examples) && body.examples.every((e) => typeof e?.id === 'string');
    if (!ok) throw new DependencyUnavailableError(this.http.service, new Error(`POST ${TEACH} answered a body that is not the taught examples`));
    return body as TaughtExamplesDto;
  }

  /** 204 → removed (or nothing was taught from it); anything else below 500 → InternalServiceResponseError. */
  async forgetTaught(orgId: string, approvalId: string): Promise<void> {
    const path = `${TAUGHT}/${encodeURIComponent(approvalId)}`;
    const res = await this.http.request('DELETE', path, this.writer(orgId));
    if (res.status !== 204 && res.status !== 200) throw InternalServiceResponseError.of(this.http.service, `DELETE ${TAUGHT}/{approval_id}`, res);
  }

  /**
   * 200 → the active set with the draft applied, validated like a snapshot. 400, 404 and 409 are
   * the draft refused (passed on as the same AppError); anything else below 500 →
   * InternalServiceResponseError. Under policy_write: the operator's scope was checked at the edge.
   */
  async previewIntentionChanges(orgId: string, changes: IntentionChangeDto[]): Promise<ActiveIntentionsDto> {
    const res = await this.http.request<ActiveIntentionsDto>('POST', PREVIEW, this.writer(orgId), { changes });
    if (res.status !== 200) throw this.refusal(`POST ${PREVIEW}`, res);
    return validatedBody(this.http.service, ActiveIntentionsDto, `POST ${PREVIEW}`, res.body);
  }

  /** 200 → the installed cards with the draft installed, validated like a snapshot; a 400 is the draft refused (passed on). */
  async previewIntentCard(orgId: string, card: InstallIntentCardDto): Promise<IntentCardsSnapshotDto> {
    const res = await this.http.request<IntentCardsSnapshotDto>('POST', CARD_PREVIEW, this.writer(orgId), { card });
    if (res.status !== 200) throw this.refusal(`POST ${CARD_PREVIEW}`, res);
    return validatedBody(this.http.service, IntentCardsSnapshotDto, `POST ${CARD_PREVIEW}`, res.body);
  }

  private writer(orgId: string): Caller {
    return { orgId, keyId: this.serviceKeyId, scope: 'policy_write' };
  }

  private refusal(request: string, res: InternalResponse<unknown>): Error {
    const kind = PASSED_ON[res.status];
    const body = res.body as { code?: unknown; message?: unknown; details?: unknown } | null;
    if (!kind || !body || typeof body.code !== 'string' || typeof body.message !== 'string')
      return InternalServiceResponseError.of(this.http.service, request, res);
    return new AppError(kind, body.code, body.message, Array.isArray(body.details) ? { details: body.details } : {});
  }
}
