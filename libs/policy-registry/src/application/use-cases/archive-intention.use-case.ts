import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { Topics, type IntentionDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { archiveIntention } from '../../domain/intention';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionDto, toIntentionEvent } from './views';

/** draft | active → archived; archived stays archived (no new event). */
@Injectable()
export class ArchiveIntentionUseCase {
  constructor(
    @Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<IntentionDto> {
    const now = this.clock.now();
    const result = await this.intentions.update(
      caller.orgId,
      id,
      (current) => archiveIntention(current, now),
      (i, orgVersion) => [envelope(Topics.IntentionArchived, i.orgId, toIntentionEvent(i, orgVersion), now)],
    );
    if (!result) throw notFound('intention');
    return toIntentionDto(result.intention);
  }
}
