import type { StatsPartApi, StatsPartDto, StatsWindow } from '@igw/contracts';
import { DependencyUnavailableError } from '@igw/kernel';
import { InternalServiceResponseError, type InternalServiceClient } from './internal-service.client';

/**
 * Distributed mode: one service's part of `GET /v1/stats` over its internal route, as the caller's
 * org (read_only is enough). A body that is not an object fails as the service being unavailable.
 */
export class HttpStatsPartClient implements StatsPartApi {
  constructor(
    private readonly http: InternalServiceClient,
    private readonly path: string,
  ) {}

  async read(orgId: string, window: StatsWindow, at: Date): Promise<StatsPartDto> {
    const query = `${this.path}?window=${encodeURIComponent(window)}&at=${encodeURIComponent(at.toISOString())}`;
    const res = await this.http.request('GET', query, { orgId, keyId: 'svc:api-gateway', scope: 'read_only' });
    if (res.status !== 200) throw InternalServiceResponseError.of(this.http.service, `GET ${this.path}`, res);
    const body = res.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new DependencyUnavailableError(this.http.service, new Error(`${this.path} answered a body that is not a stats part`));
    }
    return body as StatsPartDto;
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
