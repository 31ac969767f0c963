import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { RevocationsDto, type MandateIssuerApi } from '@igw/contracts';
import { DependencyUnavailableError } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

const REVOCATIONS = '/internal/mandates/revocations';

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
    const path = `${REVOCATIONS}?after=${afterVersion}`;
    const res = await this.http.request('GET', path, { orgId, keyId: this.serviceKeyId, scope: 'read_only' });
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, `GET ${REVOCATIONS}`, res);
    if (res.body === null || typeof res.body !== 'object' || Array.isArray(res.body)) {
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${REVOCATIONS} answered a body that is not an object`));
    }
    const dto = plainToInstance(RevocationsDto, res.body);
    const errors = validateSync(dto, { forbidUnknownValues: true });
    if (errors.length > 0) {
      throw new DependencyUnavailableError(this.http.service, new Error(`GET ${REVOCATIONS} answered an invalid body: ${firstViolation(errors[0]!)}`));
    }
    return dto;
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}

/** `revoked.1.expires_at must be …`: the first leaf of a nested validation error. */
function firstViolation(error: ValidationError, parent = ''): string {
  const child = error.children?.[0];
  if (child) return firstViolation(child, `${parent}${error.property}.`);
  return `${parent}${Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`}`;
}
