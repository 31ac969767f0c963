import { Inject } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';

/**
 * The collaborators of the intention use cases that write: the intentions and the clock that
 * stamps their events. Subclasses inherit the constructor, so Nest injects both.
 */
export abstract class IntentionWriteUseCase {
  constructor(
    @Inject(INTENTION_REPOSITORY) protected readonly intentions: IntentionRepository,
    @Inject(CLOCK) protected readonly clock: Clock,
  ) {}
}
