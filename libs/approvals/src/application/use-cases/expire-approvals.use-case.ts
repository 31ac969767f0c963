import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@igw/kernel';
import { Topics } from '@igw/contracts';
import { envelope } from '@igw/events';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import { toApprovalEvent } from './views';

/** Rows stored expired per transaction; a sweep keeps going until the backlog is done. */
export const EXPIRY_BATCH = 200;

/**
 * Stores `expired` on every pending request (all orgs) past its deadline and emits
 * approval.expired once per request. Readers already see them as expired; this makes it durable
 * and tells subscribers. Returns how many it expired.
 */
@Injectable()
export class ExpireApprovalsUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) private readonly approvals: ApprovalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(batch: number = EXPIRY_BATCH): Promise<number> {
    const now = this.clock.now();
    let total = 0;
    for (;;) {
      const expired = await this.approvals.expireDue(now, batch, (a) => [envelope(Topics.ApprovalExpired, a.orgId, toApprovalEvent(a), now)]);
      total += expired.length;
      if (expired.length < batch) return total;
    }
  }
}
