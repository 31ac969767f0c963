import { Injectable } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import { Topics, type ApprovalDto } from '@igw/contracts';
import { approve } from '../../domain/approval';
import { ApprovalDecisionUseCase } from './approval-decision';

/**
 * pending → approved and approval.approved. The requesting key may not (403 self_approval); a
 * decided or expired request is 409 invalid_transition; of concurrent approvals one wins.
 */
@Injectable()
export class ApproveApprovalUseCase extends ApprovalDecisionUseCase {
  execute(caller: Caller, id: string): Promise<ApprovalDto> {
    return this.decide(caller, id, Topics.ApprovalApproved, (current, now) => approve(current, caller.keyId, now));
  }
}
