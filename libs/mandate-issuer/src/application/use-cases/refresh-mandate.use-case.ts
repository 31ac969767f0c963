import { Inject, Injectable } from '@nestjs/common';
import { POLICY_REGISTRY_API, Topics, type DispensedMandateDto, type PolicyRegistryApi, type RefreshMandateDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
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
    let ttlSeconds = 0;
    const refreshed = await this.mandates.update(
      caller.orgId,
      dto.cred_id,
      (m) => {
        const next = refreshMandate(m, card, { now, ttlSeconds: dto.ttl_seconds, kid: key.kid });
        ttlSeconds = next.ttlSeconds;
        return next.mandate;
      },
      (saved) => [envelope(Topics.MandateRefreshed, saved.orgId, toMandateEvent(saved, now), now)],
    );
    if (!refreshed) throw notFound('mandate');
    const credential = await this.keys.sign(mandateClaims(refreshed, MANDATE_ISSUER), key);
    return {
      credential,
      cred_id: refreshed.credId,
      expires_at: refreshed.expiresAt.toISOString(),
      ttl_seconds: ttlSeconds || toEpochSeconds(refreshed.expiresAt) - toEpochSeconds(now),
      refresh_count: refreshed.refreshCount,
    };
  }
}
