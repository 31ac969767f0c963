import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, notFound, type Caller, type Clock } from '@igw/kernel';
import { Topics, type ApprovalDto, type DenyApprovalDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { deny } from '../../domain/approval';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import { toApprovalDto, toApprovalEvent } from './views';

/** pending → denied (optional reason) and approval.denied; same rules as approving. */
@Injectable()
export class DenyApprovalUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) private readonly approvals: ApprovalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string, input?: DenyApprovalDto): Promise<ApprovalDto> {
    const now = this.clock.now();
    const saved = await this.approvals.update(
      caller.orgId,
      id,
      (current) => deny(current, caller.keyId, now, input?.reason),
      (a) => [envelope(Topics.ApprovalDenied, a.orgId, toApprovalEvent(a), now)],
    );
    if (!saved) throw notFound('approval request');
    return toApprovalDto(saved, now);
  }
}
