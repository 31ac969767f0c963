import { OrgIdsDto, RevocationsDto, type MandateIssuerApi } from '@igw/contracts';
import type { InternalServiceClient } from './internal-service.client';
import { getValidated } from './validated-get';

const REVOCATIONS = '/internal/mandates/revocations';
const REVOCATION_ORGS = '/internal/mandates/revocation-orgs';

/**
 * Distributed mode: MandateIssuerApi over the issuer's internal route. The org travels as the
 * caller (the route reads the caller's org only), under the calling service's own key id with
 * read_only. The answer feeds a verifier's revocation set, so it is validated like an event
 * payload: a body that does not match RevocationsDto is treated as an outage (503), never applied.
 */
export class HttpMandateIssuerClient implements MandateIssuerApi {
  constructor(
    private readonly http: InternalServiceClient,
    /** Who is asking, for the issuer's logs, e.g. `svc:decision-proxy`. */
    private readonly serviceKeyId: string,
  ) {}

  /**
   * 200 → the validated revocations; unreachable, timeout or 5xx → DependencyUnavailableError
   * (503); any other status below 500 → InternalServiceResponseError (a bug, 500).
   */
  async revocationsSince(orgId: string, afterVersion: number): Promise<RevocationsDto> {
    if (!Number.isSafeInteger(afterVersion) || afterVersion < 0) throw new RangeError(`afterVersion must be a non-negative integer, got ${afterVersion}`);
    return getValidated(this.http, RevocationsDto, `${REVOCATIONS}?after=${afterVersion}`, { orgId, keyId: this.serviceKeyId });
  }

  /** Org ids only: the caller's org is not consulted, so this service's own name stands in for it. */
  orgsWithRevocations(): Promise<OrgIdsDto> {
    return getValidated(this.http, OrgIdsDto, REVOCATION_ORGS, { orgId: this.serviceKeyId, keyId: this.serviceKeyId });
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
