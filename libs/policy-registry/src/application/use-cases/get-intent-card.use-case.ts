import { Inject, Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import type { IntentCardDto } from '@igw/contracts';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { toIntentCardDto } from './views';

@Injectable()
export class GetIntentCardUseCase {
  constructor(@Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository) {}

  async execute(caller: Caller, id: string): Promise<IntentCardDto> {
    const card = await this.find(caller.orgId, id);
    if (!card) throw notFound('intent card');
    return card;
  }

  /** For other services (mandate dispense): null instead of a 404 they would have to interpret. */
  async find(orgId: string, id: string): Promise<IntentCardDto | null> {
    const card = await this.cards.findById(orgId, id);
    return card ? toIntentCardDto(card) : null;
  }
}
