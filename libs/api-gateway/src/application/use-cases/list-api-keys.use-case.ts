import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import type { ApiKeyListDto } from '@igw/contracts';
import { API_KEY_REPOSITORY, type ApiKeyRepository } from '../ports/org.repository.port';
import { toApiKeyDto } from './views';

@Injectable()
export class ListApiKeysUseCase {
  constructor(@Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository) {}

  async execute(caller: Caller): Promise<ApiKeyListDto> {
    return { data: (await this.keys.listByOrg(caller.orgId)).map(toApiKeyDto) };
  }
}
