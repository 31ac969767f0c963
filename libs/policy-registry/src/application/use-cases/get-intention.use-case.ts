import { Inject, Injectable } from '@nestjs/common';
import { foundOr404, type Caller } from '@igw/kernel';
import type { IntentionDto } from '@igw/contracts';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionDto } from './views';

@Injectable()
export class GetIntentionUseCase {
  constructor(@Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository) {}

  async execute(caller: Caller, id: string): Promise<IntentionDto> {
    return toIntentionDto(foundOr404(await this.intentions.findById(caller.orgId, id), 'intention'));
  }
}
