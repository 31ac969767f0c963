import { Injectable } from '@nestjs/common';
import { parseStatusFilter, type Caller } from '@igw/kernel';
import type { ApprovalDto } from '@igw/contracts';
import { APPROVAL_STATUSES, type ApprovalStatus } from '../../domain/approval';
import { parsePageQuery, toPage, type QueryValue } from '../paging';
import { toApprovalDto } from './views';
import { ApprovalUseCase } from './approval-use-case';

export interface ApprovalPage {
  data: ApprovalDto[];
  next_cursor: string | null;
}

/** The org's approval requests, newest first, optionally by status (as of now), keyset-paged. */
@Injectable()
export class ListApprovalsUseCase extends ApprovalUseCase {
  async execute(caller: Caller, query: { status?: QueryValue; limit?: QueryValue; cursor?: QueryValue }): Promise<ApprovalPage> {
    const page = parsePageQuery(query);
    const status = parseStatusFilter<ApprovalStatus>(query.status, APPROVAL_STATUSES);
    const now = this.clock.now();
    const rows = await this.approvals.list(caller.orgId, { status }, { limit: page.limit + 1, after: page.after }, now);
    const { items, nextCursor } = toPage(rows, page.limit);
    return { data: items.map((a) => toApprovalDto(a, now)), next_cursor: nextCursor };
  }
}
