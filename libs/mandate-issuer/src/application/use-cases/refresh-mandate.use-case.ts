import { Inject, Injectable } from '@nestjs/common';
import { POLICY_REGISTRY_API, Topics, type DispensedMandateDto, type PolicyRegistryApi, type RefreshMandateDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { CLOCK, conflict, notFound, type Caller, type Clock } from '@igw/kernel';
import { mandateClaims, refreshMandate } from '../../domain/mandate';
import { toEpochSeconds } from '../../domain/mandate-ttl';
import { MANDATE_REPOSITORY, type MandateRepository } from '../ports/mandate.repository.port';
import { KeyRing } from '../signing/key-ring';
import { MANDATE_ISSUER } from './dispense-mandate.use-case';
import { toMandateEvent } from './views';

/**
 * `POST /v1/mandate/refresh` (DESIGN 6.8): a new credential with the same `cred_id` and a later
 * `exp`, checked against the card as it is now. Concurrent refreshes of one mandate queue on its
 * row: one wins, the others see the cooldown (429).
 */
@Injectable()
export class RefreshMandateUseCase {
  constructor(
    @Inject(POLICY_REGISTRY_API) private readonly registry: Pick<PolicyRegistryApi, 'intentCard'>,
    @Inject(MANDATE_REPOSITORY) private readonly mandates: MandateRepository,
    private readonly keys: KeyRing,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, dto: RefreshMandateDto): Promise<DispensedMandateDto & { refresh_count: number }> {
    const current = await this.mandates.find(caller.orgId, dto.cred_id);
    if (!current) throw notFound('mandate');
    const card = await this.registry.intentCard(caller.orgId, current.mandate.intentId);
    if (!card) throw notFound(`intent card ${current.mandate.intentId}`, 'intent_not_found');
    const key = this.keys.signer();
    const now = this.clock.now();
    // Signed before it is stored: a failed signature leaves the record as it was (no refresh
    // counted, no cooldown started). The locked update re-derives the refresh from the row as it
    // is then; a concurrent refresh or revoke in between makes that throw (429 / 409), and the
    // credential signed here is never handed out.
    const planned = refreshMandate(current.mandate, card, { now, ttlSeconds: dto.ttl_seconds, kid: key.kid });
    const credential = await this.keys.sign(mandateClaims(planned.mandate, MANDATE_ISSUER), key);
    const refreshed = await this.mandates.update(
      caller.orgId,
      dto.cred_id,
      (m) => {
        const next = refreshMandate(m, card, { now, ttlSeconds: dto.ttl_seconds, kid: key.kid }).mandate;
        if (next.expiresAt.getTime() !== planned.mandate.expiresAt.getTime() || next.refreshCount !== planned.mandate.refreshCount) {
          throw conflict('mandate_changed', 'the mandate changed while it was being refreshed; retry');
        }
        return next;
      },
      (saved) => [envelope(Topics.MandateRefreshed, saved.orgId, toMandateEvent(saved, now), now)],
    );
    if (!refreshed) throw notFound('mandate');
    return {
      credential,
      cred_id: refreshed.credId,
      expires_at: refreshed.expiresAt.toISOString(),
      ttl_seconds: planned.ttlSeconds || toEpochSeconds(refreshed.expiresAt) - toEpochSeconds(now),
      refresh_count: refreshed.refreshCount,
    };
  }
}
