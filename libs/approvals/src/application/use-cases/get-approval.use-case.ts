import { Injectable } from '@nestjs/common';
import { foundOr404, type Caller } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import { toApprovalDto } from './views';
import { ApprovalUseCase } from './approval-use-case';

/** One request of the caller's org (another org's id is 404), its status as of now. */
@Injectable()
export class GetApprovalUseCase extends ApprovalUseCase {
  async execute(caller: Caller, id: string): Promise<ApprovalDto> {
    const approval = foundOr404(await this.approvals.findById(caller.orgId, id), 'approval request');
    return toApprovalDto(approval, this.clock.now());
  }
}
