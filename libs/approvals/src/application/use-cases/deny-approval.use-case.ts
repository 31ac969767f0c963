import { Injectable } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import { Topics, type ApprovalDto, type DenyApprovalDto } from '@igw/contracts';
import { deny } from '../../domain/approval';
import { ApprovalDecisionUseCase } from './approval-decision';

/** pending → denied (optional reason) and approval.denied; same rules as approving. */
@Injectable()
export class DenyApprovalUseCase extends ApprovalDecisionUseCase {
  execute(caller: Caller, id: string, input?: DenyApprovalDto): Promise<ApprovalDto> {
    return this.decide(caller, id, Topics.ApprovalDenied, (current, now) => deny(current, caller.keyId, now, input?.reason));
  }
}
