import { Inject, Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import type { IntentionDto } from '@igw/contracts';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionDto } from './views';

@Injectable()
export class GetIntentionUseCase {
  constructor(@Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository) {}

  async execute(caller: Caller, id: string): Promise<IntentionDto> {
    const intention = await this.intentions.findById(caller.orgId, id);
    if (!intention) throw notFound('intention');
    return toIntentionDto(intention);
  }
}
