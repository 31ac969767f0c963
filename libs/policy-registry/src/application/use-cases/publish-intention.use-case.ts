import { Injectable } from '@nestjs/common';
import { Topics } from '@igw/contracts';
import { publishIntention, type Intention } from '../../domain/intention';
import { IntentionTransitionUseCase } from './intention-transition';

/** draft → active; active stays active (no new event); archived → 409 invalid_transition. */
@Injectable()
export class PublishIntentionUseCase extends IntentionTransitionUseCase {
  protected readonly topic = Topics.IntentionPublished;

  protected transition(current: Intention, now: Date): Intention | null {
    return publishIntention(current, now);
  }
}
