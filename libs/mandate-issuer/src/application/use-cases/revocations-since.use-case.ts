import { Injectable } from '@nestjs/common';
import type { OrgIdsDto, RevocationsDto } from '@igw/contracts';
import { invalidRequest } from '@igw/kernel';
import { MandateReadUseCase } from './mandate-read-use-case';

/**
 * How long after its `exp` a revoked mandate is still listed: verifiers accept a mandate a little
 * past `exp` (clock leeway), so its revocation must outlive it by more than that.
 */
export const REVOCATION_LISTED_AFTER_EXPIRY_SECONDS = 300;

/**
 * The org's revocations after one version of its revocation counter (MandateIssuerApi
 * `revocationsSince`, `GET /internal/mandates/revocations?after=N`): what a verifier loads when
 * the version board's `revocations:{org}` is ahead of what it applied. `version` is the org's
 * counter and `revoked` every mandate of the org numbered above `afterVersion` that expired less
 * than 5 minutes ago or not at all, from one consistent snapshot. 400 `invalid_request` when
 * `afterVersion` is not a non-negative integer.
 */
@Injectable()
export class RevocationsSinceUseCase extends MandateReadUseCase {
  async execute(orgId: string, afterVersion: number): Promise<RevocationsDto> {
    if (!Number.isSafeInteger(afterVersion) || afterVersion < 0) {
      const message = 'after must be a non-negative integer';
      throw invalidRequest(message, [{ path: 'after', message }]);
    }
    const expiringAfter = new Date(this.clock.now().getTime() - REVOCATION_LISTED_AFTER_EXPIRY_SECONDS * 1000);
    const { version, revoked } = await this.mandates.revocationsSince(orgId, afterVersion, expiringAfter);
    return { version, revoked: revoked.map((r) => ({ cred_id: r.credId, expires_at: r.expiresAt.toISOString() })) };
  }

  /** The orgs that ever revoked a mandate: what a verifier loads at start, before it reports ready. */
  async orgs(): Promise<OrgIdsDto> {
    return { org_ids: await this.mandates.revocationOrgIds() };
  }
}
