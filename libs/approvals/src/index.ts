export {
  ApprovalsModule,
  APPROVALS_SCHEMA,
  APPROVALS_MIGRATIONS,
  APPROVALS_USE_CASES,
  DEFAULT_SWEEP_INTERVAL_MS,
  type ApprovalsModuleOptions,
} from './approvals.module';
export { ApprovalsConfig } from './approvals.config';
export { InProcessApprovalsClient } from './adapters/in-process/in-process-approvals.client';
export { ApprovalExpirySweeper } from './adapters/scheduler/approval-expiry.sweeper';
export { CreateApprovalUseCase, type ApprovalRequester } from './application/use-cases/create-approval.use-case';
export { ListApprovalsUseCase, type ApprovalPage } from './application/use-cases/list-approvals.use-case';
export { GetApprovalUseCase } from './application/use-cases/get-approval.use-case';
export { ApproveApprovalUseCase } from './application/use-cases/approve-approval.use-case';
export { DenyApprovalUseCase } from './application/use-cases/deny-approval.use-case';
export { ConsumeApprovalUseCase } from './application/use-cases/consume-approval.use-case';
export { ExpireApprovalsUseCase } from './application/use-cases/expire-approvals.use-case';
