import type { ApiKeyDto, OrgDto } from '@igw/contracts';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import type { ApiKeyRecord, OrgRecord } from '../ports/org.repository.port';

export function toApiKeyDto(k: ApiKeyRecord): ApiKeyDto {
  return { id: k.id, name: k.name, scope: k.scope, prefix: k.prefix, created_at: k.createdAt.toISOString(), revoked_at: k.revokedAt?.toISOString() ?? null };
}

export function toOrgDto(o: OrgRecord, defaults: RateLimitPolicy | undefined): OrgDto {
  const rl = o.rateLimit ?? defaults;
  return {
    id: o.id,
    name: o.name,
    rate_limit: rl ? { requests_per_second: rl.requestsPerSecond, burst: rl.burst } : (undefined as never),
    created_at: o.createdAt.toISOString(),
  };
}
