import type { Clock } from '@igw/kernel';
import type { ApprovalRepository } from '../ports/approval.repository.port';
import { ApproveApprovalUseCase } from '../use-cases/approve-approval.use-case';
import { ConsumeApprovalUseCase } from '../use-cases/consume-approval.use-case';
import { CreateApprovalUseCase } from '../use-cases/create-approval.use-case';
import { DenyApprovalUseCase } from '../use-cases/deny-approval.use-case';
import { ExpireApprovalsUseCase } from '../use-cases/expire-approvals.use-case';
import { GetApprovalUseCase } from '../use-cases/get-approval.use-case';
import { ListApprovalsUseCase } from '../use-cases/list-approvals.use-case';

/** Every approval use case over `repo` (in memory, or the Prisma one in its int-spec) and `clock`. */
export function approvalUseCases<R extends ApprovalRepository, C extends Clock>(repo: R, clock: C) {
  return {
    repo,
    clock,
    create: new CreateApprovalUseCase(repo, clock),
    get: new GetApprovalUseCase(repo, clock),
    list: new ListApprovalsUseCase(repo, clock),
    approve: new ApproveApprovalUseCase(repo, clock),
    deny: new DenyApprovalUseCase(repo, clock),
    consume: new ConsumeApprovalUseCase(repo, clock),
    expire: new ExpireApprovalsUseCase(repo, clock),
  };
}
