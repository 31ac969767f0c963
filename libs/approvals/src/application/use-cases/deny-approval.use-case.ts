import { Injectable } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import { Topics, type ApprovalDto, type DenyApprovalDto } from '@igw/contracts';
import { deny } from '../../domain/approval';
import { assertTeachable } from '../../domain/approval-teaching';
import { ApprovalDecisionUseCase, teachRequest } from './approval-decision';

/**
 * pending → denied (optional reason) and approval.denied; same rules as approving. `remember` on
 * a legacy-path request stores the call as a negative example of its candidate (DESIGN 6.15).
 */
@Injectable()
export class DenyApprovalUseCase extends ApprovalDecisionUseCase {
  execute(caller: Caller, id: string, input: DenyApprovalDto = {}): Promise<ApprovalDto> {
    return this.decide(caller, id, Topics.ApprovalDenied, (current) => {
      assertTeachable(current, { remember: input.remember });
      return {
        apply: (latest, now) => deny(latest, caller.keyId, now, input.reason),
        teach: input.remember === true ? teachRequest(current, 'denied') : null,
      };
    });
  }
}
