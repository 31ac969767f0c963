import { Injectable } from '@nestjs/common';
import { Topics } from '@igw/contracts';
import { archiveIntention, type Intention } from '../../domain/intention';
import { IntentionTransitionUseCase } from './intention-transition';

/** draft | active → archived; archived stays archived (no new event). */
@Injectable()
export class ArchiveIntentionUseCase extends IntentionTransitionUseCase {
  protected readonly topic = Topics.IntentionArchived;

  protected transition(current: Intention, now: Date): Intention | null {
    return archiveIntention(current, now);
  }
}
