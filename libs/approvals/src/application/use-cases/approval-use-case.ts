import { Inject } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';

/**
 * The collaborators every approvals use case shares: the requests and the clock (a request's
 * status is always as of now). Subclasses inherit the constructor, so Nest injects both.
 */
export abstract class ApprovalUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) protected readonly approvals: ApprovalRepository,
    @Inject(CLOCK) protected readonly clock: Clock,
  ) {}
}
