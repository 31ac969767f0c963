import { Inject, Injectable } from '@nestjs/common';
import type { InstallIntentCardDto, IntentCardsSnapshotDto } from '@igw/contracts';
import { CLOCK, throwIfInvalid, type Clock } from '@igw/kernel';
import { checkCard } from '../../domain/card-rules';
import { installCard } from '../../domain/intent-card';
import { INTENT_CARD_REPOSITORY, type IntentCardRepository } from '../ports/intent-card.repository.port';
import { toCardContent } from './install-intent-card.use-case';
import { toIntentCardEvent } from './views';

/** The id a draft without one gets: a new card no kept call can name. */
export const DRAFT_CARD_ID = 'card_draft';

/**
 * What-if replay of a card (DESIGN 6.16): the org's installed cards with a draft installed over
 * them, through the same rules as the real install (checkCard, installCard), stored nowhere and
 * announced to no one. A draft with an installed card's id replaces it (version + 1), another
 * adds it. The draft comes first. Refusals are the install's own 400s, each detail's path under `card.`.
 */
@Injectable()
export class PreviewIntentCardUseCase {
  constructor(
    @Inject(INTENT_CARD_REPOSITORY) private readonly cards: IntentCardRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(orgId: string, draft: InstallIntentCardDto): Promise<IntentCardsSnapshotDto> {
    const content = toCardContent(draft, draft.id ?? DRAFT_CARD_ID);
    throwIfInvalid(checkCard(content).map((d) => ({ path: `card.${d.path}`, message: d.message.startsWith(d.path) ? `card.${d.message}` : d.message })));
    const { version, cards } = await this.cards.snapshot(orgId);
    const existing = cards.find((c) => c.id === content.id) ?? null;
    const drafted = installCard(orgId, existing, content, this.clock.now());
    const all = [drafted, ...cards.filter((c) => c.id !== content.id)];
    // `version` is the installed cards' counter (the replay cursor pins it); each card carries the
    // change the draft would be, version + 1 (an event's org_version is never 0).
    return { version, cards: all.map((c) => toIntentCardEvent(c, version + 1)) };
  }
}
