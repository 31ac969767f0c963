import { Injectable } from '@nestjs/common';
import { invalidRequest } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import type { ApprovalRequester } from './create-approval.use-case';
import { toApprovalDto } from './views';
import { ApprovalUseCase } from './approval-use-case';

/**
 * Uses the approval of a call: the oldest approved, unused, unexpired request with this
 * fingerprint in the caller's org is marked used and returned; null when there is none. Each
 * approval lets exactly one call through, also under concurrency. Emits no event.
 */
@Injectable()
export class ConsumeApprovalUseCase extends ApprovalUseCase {
  async execute(caller: ApprovalRequester, fingerprint: string): Promise<ApprovalDto | null> {
    if (typeof fingerprint !== 'string' || fingerprint === '' || fingerprint.length > 128) {
      throw invalidRequest('fingerprint must be a non-empty string of at most 128 characters', [{ path: 'fingerprint', message: 'fingerprint is invalid' }]);
    }
    const now = this.clock.now();
    const used = await this.approvals.consume(caller.orgId, fingerprint, now);
    return used ? toApprovalDto(used, now) : null;
  }
}
