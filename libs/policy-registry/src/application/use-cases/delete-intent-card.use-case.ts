import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { Topics } from '@igw/contracts';
import { envelope } from '@igw/events';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { toIntentCardEvent } from './views';

/**
 * Removes a card. The `intent_card.deleted` event carries the removed card with `deleted: true`
 * and version + 1, so a read model that keeps the highest version per card applies it.
 */
@Injectable()
export class DeleteIntentCardUseCase {
  constructor(
    @Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<void> {
    const now = this.clock.now();
    const deleted = await this.cards.delete(caller.orgId, id, (c, orgVersion) => [
      envelope(Topics.IntentCardDeleted, c.orgId, toIntentCardEvent({ ...c, version: c.version + 1, updatedAt: now }, orgVersion, true), now),
    ]);
    if (!deleted) throw notFound('intent card');
  }
}
