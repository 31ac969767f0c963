import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, parseStatusFilter, type Caller, type Clock } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import { APPROVAL_STATUSES, type ApprovalStatus } from '../../domain/approval';
import { parsePageQuery, toPage, type QueryValue } from '../paging';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import { toApprovalDto } from './views';

export interface ApprovalPage {
  data: ApprovalDto[];
  next_cursor: string | null;
}

/** The org's approval requests, newest first, optionally by status (as of now), keyset-paged. */
@Injectable()
export class ListApprovalsUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) private readonly approvals: ApprovalRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, query: { status?: QueryValue; limit?: QueryValue; cursor?: QueryValue }): Promise<ApprovalPage> {
    const page = parsePageQuery(query);
    const status = parseStatusFilter<ApprovalStatus>(query.status, APPROVAL_STATUSES);
    const now = this.clock.now();
    const rows = await this.approvals.list(caller.orgId, { status }, { limit: page.limit + 1, after: page.after }, now);
    const { items, nextCursor } = toPage(rows, page.limit);
    return { data: items.map((a) => toApprovalDto(a, now)), next_cursor: nextCursor };
  }
}
