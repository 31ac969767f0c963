import { notFound, type Caller } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import type { Approval } from '../../domain/approval';
import { toApprovalDto, toApprovalEvent } from './views';
import { ApprovalUseCase } from './approval-use-case';

/**
 * What approving and denying share: load the request in the caller's org (404 if absent), apply
 * the domain decision and save it with its event; of concurrent decisions one wins.
 */
export abstract class ApprovalDecisionUseCase extends ApprovalUseCase {
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
