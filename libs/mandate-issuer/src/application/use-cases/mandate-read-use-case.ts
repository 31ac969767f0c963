import { Inject } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { MANDATE_REPOSITORY, type MandateRepository } from '../ports/mandate.repository.port';

/**
 * The collaborators of the use cases that only read mandates: the records and the clock (what
 * they answer is as of now). Subclasses inherit the constructor, so Nest injects both.
 */
export abstract class MandateReadUseCase {
  constructor(
    @Inject(MANDATE_REPOSITORY) protected readonly mandates: MandateRepository,
    @Inject(CLOCK) protected readonly clock: Clock,
  ) {}
}
