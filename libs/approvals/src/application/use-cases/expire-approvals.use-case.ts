import { Injectable } from '@nestjs/common';
import { Topics } from '@igw/contracts';
import { envelope } from '@igw/events';
import { toApprovalEvent } from './views';
import { ApprovalUseCase } from './approval-use-case';

/** Rows stored expired per transaction; a sweep keeps going until the backlog is done. */
export const EXPIRY_BATCH = 200;

/**
 * Stores `expired` on every pending request (all orgs) past its deadline and emits
 * approval.expired once per request. Readers already see them as expired; this makes it durable
 * and tells subscribers. Returns how many it expired.
 */
@Injectable()
export class ExpireApprovalsUseCase extends ApprovalUseCase {
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
