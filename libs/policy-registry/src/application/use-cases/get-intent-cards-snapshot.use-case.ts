import { Inject, Injectable } from '@nestjs/common';
import type { IntentCardsSnapshotDto } from '@igw/contracts';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { toIntentCardEvent } from './views';

/**
 * An org's installed intent cards and the cards counter they correspond to, from one consistent
 * snapshot: what a read model of the cards loads when the version board says it is stale. Each
 * card is in event form with `org_version` = the snapshot's version (and no `deleted`).
 */
@Injectable()
export class GetIntentCardsSnapshotUseCase {
  constructor(@Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository) {}

  async execute(orgId: string): Promise<IntentCardsSnapshotDto> {
    const { version, cards } = await this.cards.snapshot(orgId);
    return { version, cards: cards.map((c) => toIntentCardEvent(c, version)) };
  }
}
