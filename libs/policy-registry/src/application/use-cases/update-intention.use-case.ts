import { Injectable } from '@nestjs/common';
import { notFound, type Caller } from '@igw/kernel';
import { Topics, type IntentionDto, type UpdateIntentionDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { assertSomeChange, updateIntention } from '../../domain/intention';
import { intentionChangesOf } from './intention-inputs';
import { toIntentionDto, toIntentionEvent } from './views';
import { IntentionWriteUseCase } from './intention-use-case';

/**
 * Changes the given fields of a draft or active intention (version + 1, `intention.updated`, the
 * read models advanced before the answer). Server-assigned fields and `label` are ignored; a body
 * that changes nothing is a 400 naming the body, values equal to the current ones an answer
 * without a new version; archived → 409 invalid_transition; unknown or another org's id → 404.
 */
@Injectable()
export class UpdateIntentionUseCase extends IntentionWriteUseCase {
  async execute(caller: Caller, id: string, input: UpdateIntentionDto | undefined): Promise<IntentionDto> {
    const now = this.clock.now();
    const changes = intentionChangesOf(input);
    assertSomeChange(changes);
    const result = await this.intentions.update(
      caller.orgId,
      id,
      (current) => updateIntention(current, changes, now),
      (i, orgVersion) => [envelope(Topics.IntentionUpdated, i.orgId, toIntentionEvent(i, orgVersion), now)],
    );
    if (!result) throw notFound('intention');
    return toIntentionDto(result.intention);
  }
}
