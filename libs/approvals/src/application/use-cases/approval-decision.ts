import { Inject } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import type { Approval } from '../../domain/approval';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import { toApprovalDto, toApprovalEvent } from './views';

/**
 * What approving and denying share: load the request in the caller's org (404 if absent), apply
 * the domain decision and save it with its event; of concurrent decisions one wins.
 */
export abstract class ApprovalDecisionUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) private readonly approvals: ApprovalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  protected async decide(
    caller: Caller,
    id: string,
    topic: { name: string; version: number },
    decision: (current: Approval, now: Date) => Approval,
  ): Promise<ApprovalDto> {
    const now = this.clock.now();
    const saved = await this.approvals.update(
      caller.orgId,
      id,
      (current) => decision(current, now),
      (a) => [envelope(topic, a.orgId, toApprovalEvent(a), now)],
    );
    if (!saved) throw notFound('approval request');
    return toApprovalDto(saved, now);
  }
}
