import { RevocationsDto, type MandateIssuerApi, type OrgIdsDto } from '@igw/contracts';
import { ServiceKeyClient } from './service-key.client';

const REVOCATIONS = '/internal/mandates/revocations';
const REVOCATION_ORGS = '/internal/mandates/revocation-orgs';

/**
 * Distributed mode: MandateIssuerApi over the issuer's internal route. The org travels as the
 * caller (the route reads the caller's org only), under the calling service's own key id with
 * read_only. The answer feeds a verifier's revocation set, so it is validated like an event
 * payload: a body that does not match RevocationsDto is treated as an outage (503), never applied.
 */
export class HttpMandateIssuerClient extends ServiceKeyClient implements MandateIssuerApi {
  /**
   * 200 → the validated revocations; unreachable, timeout or 5xx → DependencyUnavailableError
   * (503); any other status below 500 → InternalServiceResponseError (a bug, 500).
   */
  async revocationsSince(orgId: string, afterVersion: number): Promise<RevocationsDto> {
    if (!Number.isSafeInteger(afterVersion) || afterVersion < 0) throw new RangeError(`afterVersion must be a non-negative integer, got ${afterVersion}`);
    return this.read(RevocationsDto, `${REVOCATIONS}?after=${afterVersion}`, orgId);
  }

  orgsWithRevocations(): Promise<OrgIdsDto> {
    return this.orgIds(REVOCATION_ORGS);
  }
}
