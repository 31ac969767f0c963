import { Inject, Injectable } from '@nestjs/common';
import type { OrgIdsDto, RegistryCounter } from '@igw/contracts';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';

/**
 * The orgs whose intentions (or cards) ever changed: what a reader's read model loads at start,
 * before its process reports ready (a service route; it names orgs, never their data).
 */
@Injectable()
export class ListStatefulOrgsUseCase {
  constructor(
    @Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository,
    @Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository,
  ) {}

  async execute(counter: RegistryCounter): Promise<OrgIdsDto> {
    return { org_ids: await (counter === 'cards' ? this.cards.orgIds() : this.intentions.orgIds()) };
  }
}
