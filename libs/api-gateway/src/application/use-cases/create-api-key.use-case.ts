import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, newId, type Caller, type Clock, type Scope } from '@igw/kernel';
import { Topics, type CreatedApiKeyDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { displayPrefix } from '../../domain/api-key';
import { generateApiKey, hashApiKey } from '../api-key-secrets';
import { API_KEY_REPOSITORY, type ApiKeyRepository, type NewApiKey } from '../ports/org.repository.port';
import { toApiKeyDto } from './views';

@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: { name: string; scope: Scope }): Promise<CreatedApiKeyDto> {
    const now = this.clock.now();
    const secret = generateApiKey();
    const key: NewApiKey = {
      id: newId('key'),
      orgId: caller.orgId,
      name: input.name,
      scope: input.scope,
      prefix: displayPrefix(secret),
      hash: hashApiKey(secret),
      createdAt: now,
      revokedAt: null,
    };
    await this.keys.create(key, [
      envelope(Topics.ApiKeyCreated, caller.orgId, { id: key.id, name: key.name, scope: key.scope, created_at: now.toISOString() }, now),
    ]);
    return { ...toApiKeyDto(key), key: secret };
  }
}
