import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { Topics, type ApiKeyDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { AUTH_EPOCH, type AuthEpoch } from '../ports/auth-epoch.port';
import { API_KEY_REPOSITORY, type ApiKeyRepository } from '../ports/org.repository.port';
import { toApiKeyDto } from './views';

/** Revokes a key of the caller's org; idempotent; the key fails on its very next request. */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository,
    @Inject(AUTH_EPOCH) private readonly epoch: AuthEpoch,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<ApiKeyDto> {
    const now = this.clock.now();
    const key = await this.keys.revoke(caller.orgId, id, now, (k) => [
      envelope(
        Topics.ApiKeyRevoked,
        k.orgId,
        { id: k.id, name: k.name, scope: k.scope, created_at: k.createdAt.toISOString(), revoked_at: now.toISOString() },
        now,
      ),
    ]);
    if (!key) throw notFound('api key');
    await this.epoch.bump();
    return toApiKeyDto(key);
  }
}
