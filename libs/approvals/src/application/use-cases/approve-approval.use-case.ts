import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { Topics, type ApprovalDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { approve } from '../../domain/approval';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import { toApprovalDto, toApprovalEvent } from './views';

/**
 * pending → approved and approval.approved. The requesting key may not (403 self_approval); a
 * decided or expired request is 409 invalid_transition; of concurrent approvals one wins.
 */
@Injectable()
export class ApproveApprovalUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) private readonly approvals: ApprovalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<ApprovalDto> {
    const now = this.clock.now();
    const saved = await this.approvals.update(
      caller.orgId,
      id,
      (current) => approve(current, caller.keyId, now),
      (a) => [envelope(Topics.ApprovalApproved, a.orgId, toApprovalEvent(a), now)],
    );
    if (!saved) throw notFound('approval request');
    return toApprovalDto(saved, now);
  }
}
