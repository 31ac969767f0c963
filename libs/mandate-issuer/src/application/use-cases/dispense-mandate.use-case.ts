import { Inject, Injectable, Logger } from '@nestjs/common';
import { MANDATE_JWT, POLICY_REGISTRY_API, Topics, type DispenseMandateDto, type DispensedMandateDto, type PolicyRegistryApi } from '@igw/contracts';
import { envelope } from '@igw/events';
import { CLOCK, invalidRequest, newId, notFound, type Caller, type Clock } from '@igw/kernel';
import { dispenseMandate, mandateClaims, type Mandate } from '../../domain/mandate';
import { CREDENTIAL_BROKERS, type CredentialBrokers, type MintedCredential } from '../brokers';
import { MANDATE_REPOSITORY, type MandateRepository } from '../ports/mandate.repository.port';
import { KeyRing } from '../signing/key-ring';
import { MANDATE_SIGNING, type MandateSigning } from '../signing/mandate-signing.port';
import { toMandateEvent } from './views';

/** `iss` of every mandate. */
export const MANDATE_ISSUER = MANDATE_JWT.issuer;

/** What seals a broker revocation handle to its mandate. */
export const brokerHandlePurpose = (credId: string) => `broker-revocation:${credId}`;

/**
 * `POST /v1/mandate/dispense` (DESIGN 6.8): the caller's org's card (404 `intent_not_found`), the
 * scope and audience check (403 `mandate_violation` + `suggested_scope`), the TTL clamp, an RS256
 * signature by the current key (500 `signing_failed` when the key store is unusable), the
 * broker when asked (502 `broker_failed`), and the record with its `mandate.dispensed` event.
 *
 * "No half-issued mandate stays active": the broker runs before anything is stored; when it fails
 * the signed credential is recorded as revoked (so every verifier's revocation set has it) and
 * never returned. When storing fails after the broker minted, the broker credential is revoked.
 */
@Injectable()
export class DispenseMandateUseCase {
  private readonly log = new Logger('DispenseMandate');

  constructor(
    @Inject(POLICY_REGISTRY_API) private readonly registry: Pick<PolicyRegistryApi, 'intentCard'>,
    @Inject(MANDATE_REPOSITORY) private readonly mandates: MandateRepository,
    @Inject(CREDENTIAL_BROKERS) private readonly brokers: CredentialBrokers,
    @Inject(MANDATE_SIGNING) private readonly signing: MandateSigning,
    private readonly keys: KeyRing,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, dto: DispenseMandateDto): Promise<DispensedMandateDto> {
    const brokerKind = dto.broker_dispense?.kind;
    if (brokerKind !== undefined && !this.brokers.isConfigured(brokerKind)) {
      const message = `broker_dispense.kind ${brokerKind} is not configured on this gateway (configured: ${this.brokers.configuredKinds().join(', ') || 'none'})`;
      throw invalidRequest(message, [{ path: 'broker_dispense.kind', message }]);
    }
    const card = await this.registry.intentCard(caller.orgId, dto.intent_id);
    if (!card) throw notFound(`intent card ${dto.intent_id}`, 'intent_not_found');

    const now = this.clock.now();
    const key = this.keys.signer();
    const { mandate, ttlSeconds } = dispenseMandate(
      card,
      {
        actor: dto.actor,
        promptId: dto.prompt_id,
        audience: dto.audience,
        requestedScope: dto.requested_scope,
        ttlSeconds: dto.ttl_seconds,
        context: dto.context,
        classificationEvidence: dto.classification_evidence,
      },
      { credId: newId('cred'), orgId: caller.orgId, kid: key.kid, now },
    );
    const credential = await this.keys.sign(mandateClaims(mandate, MANDATE_ISSUER), key);

    let minted: MintedCredential | null = null;
    if (brokerKind !== undefined) {
      try {
        minted = await this.brokers.mint(brokerKind, {
          mandate: credential,
          expiresAt: mandate.expiresAt,
          options: { vault_role: dto.broker_dispense?.vault_role },
        });
      } catch (err) {
        await this.recordFailedDispense(mandate, now);
        throw err;
      }
    }

    const stored: Mandate = minted ? { ...mandate, broker: { ...minted.record } } : mandate;
    try {
      const sealed = minted?.revocationHandle ? this.signing.seal(minted.revocationHandle, brokerHandlePurpose(mandate.credId)) : null;
      await this.mandates.create({ mandate: stored, brokerRevocationSealed: sealed }, (saved) => [
        envelope(Topics.MandateDispensed, saved.orgId, toMandateEvent(saved, now), now),
      ]);
    } catch (err) {
      if (minted && brokerKind) {
        await this.brokers
          .revoke(brokerKind, minted.revocationHandle)
          .catch((e: unknown) => this.log.error(`could not revoke the ${brokerKind} credential of unstored mandate ${mandate.credId}: ${String(e)}`));
      }
      throw err;
    }
    return {
      credential,
      cred_id: mandate.credId,
      expires_at: mandate.expiresAt.toISOString(),
      ttl_seconds: ttlSeconds,
      ...(minted && brokerKind ? { broker_dispense: { kind: brokerKind, result: { ...minted.result } } } : {}),
    };
  }

  /** The signed credential exists (the broker saw it): record it revoked so verifiers refuse it. */
  private async recordFailedDispense(mandate: Mandate, now: Date): Promise<void> {
    const revoked: Mandate = { ...mandate, revokedAt: now, revokeReason: 'broker_failed' };
    await this.mandates
      .create({ mandate: revoked, brokerRevocationSealed: null }, (saved, write) => [
        envelope(Topics.MandateRevoked, saved.orgId, toMandateEvent(saved, now, write.revocationVersion), now),
      ])
      .catch((e: unknown) => this.log.error(`could not record failed dispense ${mandate.credId}: ${String(e)}`));
  }
}
