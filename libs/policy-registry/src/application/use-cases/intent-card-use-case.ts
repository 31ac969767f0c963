import { Inject } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';

/**
 * The collaborators of the intent-card use cases that write: the cards and the clock that stamps
 * their events. Subclasses inherit the constructor, so Nest injects both.
 */
export abstract class IntentCardWriteUseCase {
  constructor(
    @Inject(INTENT_CARD_REPOSITORY) protected readonly cards: IntentCardRepository,
    @Inject(CLOCK) protected readonly clock: Clock,
  ) {}
}
