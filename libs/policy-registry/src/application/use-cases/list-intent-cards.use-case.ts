import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import type { IntentCardListDto } from '@igw/contracts';
import { parsePageQuery, toPage, type QueryValue } from '../paging';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { toIntentCardDto } from './views';

/** The org's intent cards, newest first, keyset-paged. */
@Injectable()
export class ListIntentCardsUseCase {
  constructor(@Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository) {}

  async execute(caller: Caller, query: { limit?: QueryValue; cursor?: QueryValue }): Promise<IntentCardListDto> {
    const page = parsePageQuery(query);
    const rows = await this.cards.list(caller.orgId, { limit: page.limit + 1, after: page.after });
    const { items, nextCursor } = toPage(rows, page.limit);
    return { data: items.map(toIntentCardDto), next_cursor: nextCursor };
  }
}
