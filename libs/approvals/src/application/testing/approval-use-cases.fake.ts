import type { Clock } from '@igw/kernel';
import type { ApprovalRepository } from '../ports/approval.repository.port';
import type { RegistryTeacher } from '../ports/registry-teacher.port';
import { ApproveApprovalUseCase } from '../use-cases/approve-approval.use-case';
import { ConsumeApprovalUseCase } from '../use-cases/consume-approval.use-case';
import { CreateApprovalUseCase } from '../use-cases/create-approval.use-case';
import { DenyApprovalUseCase } from '../use-cases/deny-approval.use-case';
import { ExpireApprovalsUseCase } from '../use-cases/expire-approvals.use-case';
import { GetApprovalUseCase } from '../use-cases/get-approval.use-case';
import { ListApprovalsUseCase } from '../use-cases/list-approvals.use-case';
import { ReadApprovalStatsUseCase } from '../use-cases/read-approval-stats.use-case';
import { FakeRegistryTeacher } from './fake-registry-teacher';

/** Every approval use case over `repo` (in memory, or the Prisma one in its int-spec), `clock` and a registry (a fake by default). */
export function approvalUseCases<R extends ApprovalRepository, C extends Clock, T extends RegistryTeacher = FakeRegistryTeacher>(
  repo: R,
  clock: C,
  registry: T = new FakeRegistryTeacher() as unknown as T,
) {
  return {
    repo,
    clock,
    registry,
    create: new CreateApprovalUseCase(repo, clock),
    get: new GetApprovalUseCase(repo, clock),
    list: new ListApprovalsUseCase(repo, clock),
    approve: new ApproveApprovalUseCase(repo, clock, registry),
    deny: new DenyApprovalUseCase(repo, clock, registry),
    consume: new ConsumeApprovalUseCase(repo, clock),
    expire: new ExpireApprovalsUseCase(repo, clock),
    stats: new ReadApprovalStatsUseCase(repo, clock),
  };
}
