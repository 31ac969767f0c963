import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { Topics, type IntentionDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { publishIntention } from '../../domain/intention';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionDto, toIntentionEvent } from './views';

/** draft → active; active stays active (no new event); archived → 409 invalid_transition. */
@Injectable()
export class PublishIntentionUseCase {
  constructor(
    @Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<IntentionDto> {
    const now = this.clock.now();
    const result = await this.intentions.update(
      caller.orgId,
      id,
      (current) => publishIntention(current, now),
      (i, orgVersion) => [envelope(Topics.IntentionPublished, i.orgId, toIntentionEvent(i, orgVersion), now)],
    );
    if (!result) throw notFound('intention');
    return toIntentionDto(result.intention);
  }
}
