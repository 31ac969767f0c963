import { Injectable } from '@nestjs/common';
import type { ApprovalDto, ApprovalsApi, CreateApprovalRequestDto } from '@igw/contracts';
import { ConsumeApprovalUseCase } from '../../application/use-cases/consume-approval.use-case';
import { CreateApprovalUseCase, type ApprovalRequester } from '../../application/use-cases/create-approval.use-case';

/**
 * Embedded mode: other services reach approvals through the same use cases in the same process
 * (provided and exported under APPROVALS_API). Distributed mode uses the internal HTTP routes.
 */
@Injectable()
export class InProcessApprovalsClient implements ApprovalsApi {
  constructor(
    private readonly createApproval: CreateApprovalUseCase,
    private readonly consumeApproval: ConsumeApprovalUseCase,
  ) {}

  create(caller: ApprovalRequester, request: CreateApprovalRequestDto): Promise<ApprovalDto> {
    return this.createApproval.execute({ orgId: caller.orgId, keyId: caller.keyId }, request);
  }

  consume(caller: ApprovalRequester, fingerprint: string): Promise<ApprovalDto | null> {
    return this.consumeApproval.execute({ orgId: caller.orgId, keyId: caller.keyId }, fingerprint);
  }
}
