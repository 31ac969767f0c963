import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import { toApprovalDto } from './views';

/** One request of the caller's org (another org's id is 404), its status as of now. */
@Injectable()
export class GetApprovalUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) private readonly approvals: ApprovalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string): Promise<ApprovalDto> {
    const approval = await this.approvals.findById(caller.orgId, id);
    if (!approval) throw notFound('approval request');
    return toApprovalDto(approval, this.clock.now());
  }
}
