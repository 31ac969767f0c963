import { Inject, Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import type { IntentCardDto } from '@igw/contracts';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { toIntentCardDto } from './views';

@Injectable()
export class GetIntentCardUseCase {
  constructor(@Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository) {}

  async execute(caller: Caller, id: string): Promise<IntentCardDto> {
    const card = await this.cards.findById(caller.orgId, id);
    if (!card) throw notFound('intent card');
    return toIntentCardDto(card);
  }
}
