import { Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import { Topics } from '@igw/contracts';
import { envelope } from '@igw/events';
import { toIntentCardEvent } from './views';
import { IntentCardWriteUseCase } from './intent-card-use-case';

/**
 * Removes a card. The `intent_card.deleted` event carries the removed card with `deleted: true`
 * and version + 1, so a read model that keeps the highest version per card applies it.
 */
@Injectable()
export class DeleteIntentCardUseCase extends IntentCardWriteUseCase {
  async execute(caller: Caller, id: string): Promise<void> {
    const now = this.clock.now();
    const deleted = await this.cards.delete(caller.orgId, id, (c, orgVersion) => [
      envelope(Topics.IntentCardDeleted, c.orgId, toIntentCardEvent({ ...c, version: c.version + 1, updatedAt: now }, orgVersion, true), now),
    ]);
    if (!deleted) throw notFound('intent card');
  }
}
