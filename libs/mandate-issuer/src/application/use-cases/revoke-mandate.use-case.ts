import { Inject, Injectable, Logger } from '@nestjs/common';
import { Topics, type RevokeMandateDto, type RevokedMandateDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { CLOCK, defined, notFound, type Caller, type Clock } from '@igw/kernel';
import { revokeMandate } from '../../domain/mandate';
import { CREDENTIAL_BROKERS, isBrokerKind, type CredentialBrokers } from '../brokers';
import { MANDATE_REPOSITORY, type MandateRepository } from '../ports/mandate.repository.port';
import { MANDATE_SIGNING, type MandateSigning } from '../signing/mandate-signing.port';
import { brokerHandlePurpose } from './dispense-mandate.use-case';
import { toMandateEvent } from './views';

/**
 * `POST /v1/mandate/revoke` (DESIGN 6.8): idempotent. The revocation is committed (with its
 * `mandate.revoked` event, which verifiers apply at once, and the org's next revocation number,
 * which the version board shows every verifier before this answers) before the broker is told; the broker
 * credential is revoked on every call until the broker confirms, so a broker outage during the
 * first call is repaired by calling again.
 */
@Injectable()
export class RevokeMandateUseCase {
  private readonly log = new Logger('RevokeMandate');

  constructor(
    @Inject(MANDATE_REPOSITORY) private readonly mandates: MandateRepository,
    @Inject(CREDENTIAL_BROKERS) private readonly brokers: CredentialBrokers,
    @Inject(MANDATE_SIGNING) private readonly signing: MandateSigning,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, dto: RevokeMandateDto): Promise<RevokedMandateDto> {
    const now = this.clock.now();
    const revoked = await this.mandates.update(
      caller.orgId,
      dto.cred_id,
      (m) => {
        const next = revokeMandate(m, now, dto.reason);
        return next.changed ? next.mandate : null;
      },
      (saved, write) => [envelope(Topics.MandateRevoked, saved.orgId, toMandateEvent(saved, now, write.revocationVersion), now)],
    );
    if (!revoked) throw notFound('mandate');
    const answer: RevokedMandateDto = {
      cred_id: revoked.credId,
      status: 'revoked',
      revoked_at: defined(revoked.revokedAt, 'revokedAt of a revoked mandate').toISOString(),
    };

    const kind = revoked.broker?.kind;
    if (!isBrokerKind(kind)) return answer;
    const brokerState = revoked.broker as { revocation?: string };
    if (brokerState.revocation === 'revoked' || brokerState.revocation === 'already_invalid' || brokerState.revocation === 'not_revocable') {
      return { ...answer, broker_revocation: { kind, result: brokerState.revocation } };
    }
    const stored = await this.mandates.find(caller.orgId, dto.cred_id);
    let result: string;
    try {
      // Inside the try: a handle that cannot be opened (KEK changed) is a failed broker revocation, not a 500.
      const handle = stored?.brokerRevocationSealed ? this.signing.unseal(stored.brokerRevocationSealed, brokerHandlePurpose(revoked.credId)) : null;
      result = (await this.brokers.revoke(kind, handle)).result;
    } catch (err) {
      this.log.warn(`revoking the ${kind} credential of mandate ${revoked.credId} failed; a later revoke call retries: ${(err as Error).message}`);
      return { ...answer, broker_revocation: { kind, result: 'failed' } };
    }
    await this.mandates.update(
      caller.orgId,
      dto.cred_id,
      (m) => ({ ...m, broker: m.broker === null ? null : { ...m.broker, revocation: result } }),
      () => [],
    );
    return { ...answer, broker_revocation: { kind, result } };
  }
}
