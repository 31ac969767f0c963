import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Caller, type Clock, type Scope } from '@igw/kernel';
import type { CreatedApiKeyDto } from '@igw/contracts';
import { generateApiKey } from '../api-key-secrets';
import { newApiKey } from '../new-api-key';
import { API_KEY_REPOSITORY, type ApiKeyRepository } from '../ports/org.repository.port';
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
    const { key, created } = newApiKey(caller.orgId, input.name, input.scope, secret, now);
    await this.keys.create(key, [created]);
    return { ...toApiKeyDto(key), key: secret };
  }
}
