import { Inject, Injectable } from '@nestjs/common';
import { BoundedMap, CLOCK, unauthenticated, type Caller, type Clock } from '@igw/kernel';
import { isAcceptableKey } from '../../domain/api-key';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import { hashApiKey } from '../api-key-secrets';
import { AUTH_EPOCH, type AuthEpoch } from '../ports/auth-epoch.port';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings';
import { API_KEY_REPOSITORY, type ApiKeyRepository } from '../ports/org.repository.port';

export interface Authenticated {
  caller: Caller;
  rateLimit: RateLimitPolicy;
}

interface CacheEntry {
  value: Authenticated | null;
  epoch: number;
  expiresAt: number;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * Resolves a bearer key to its caller. Keys are looked up by SHA-256 and cached in memory, so
 * the database stays off the hot path; the cache is trusted only while the shared auth epoch is
 * unchanged, and a revocation bumps the epoch. If the epoch cannot be read the database decides.
 */
@Injectable()
export class AuthenticateApiKeyUseCase {
  private readonly cache = new BoundedMap<string, CacheEntry>(CACHE_MAX);

  constructor(
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository,
    @Inject(AUTH_EPOCH) private readonly epoch: AuthEpoch,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(bearer: string): Promise<Authenticated> {
    if (!isAcceptableKey(bearer)) throw unauthenticated('the API key is malformed: send the key as issued (igw_…, 32 to 256 characters, no spaces)');
    const hash = hashApiKey(bearer);
    const now = this.clock.now().getTime();
    const epoch = await this.epoch.current().catch(() => undefined);
    const cached = this.cache.get(hash);
    if (epoch !== undefined && cached && cached.epoch === epoch && cached.expiresAt > now) return this.answer(cached.value);

    const found = await this.keys.findByHash(hash);
    const value: Authenticated | null =
      found && !found.key.revokedAt
        ? {
            caller: { orgId: found.key.orgId, keyId: found.key.id, scope: found.key.scope },
            rateLimit: found.org.rateLimit ?? this.settings.defaultRateLimit,
          }
        : null;
    if (epoch !== undefined) {
      this.cache.set(hash, { value, epoch, expiresAt: now + CACHE_TTL_MS });
    }
    return this.answer(value);
  }

  private answer(value: Authenticated | null): Authenticated {
    if (!value) throw unauthenticated('the API key is unknown or revoked');
    return value;
  }
}
