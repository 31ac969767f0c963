import { OrgIdsDto } from '@igw/contracts';
import type { InternalServiceClient } from './internal-service.client';
import { getValidated } from './validated-get';

/**
 * What the clients that feed read models share: they ask under the calling service's own key id
 * (read_only) and validate every body they read (getValidated).
 */
export abstract class ServiceKeyClient {
  constructor(
    protected readonly http: InternalServiceClient,
    /** Who is asking, for the owner's logs, e.g. `svc:decision-proxy`. */
    protected readonly serviceKeyId: string,
  ) {}

  /** GET `path` for the org, its 200 body validated as `type`. */
  protected read<T extends object>(type: new () => T, path: string, orgId: string): Promise<T> {
    return getValidated(this.http, type, path, { orgId, keyId: this.serviceKeyId });
  }

  /** Org ids only: the caller's org is not consulted, so this service's own name stands in for it. */
  protected orgIds(path: string): Promise<OrgIdsDto> {
    return this.read(OrgIdsDto, path, this.serviceKeyId);
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
