import { Inject, Injectable } from '@nestjs/common';
import { invalidRequest, type Caller } from '@igw/kernel';
import type { IntentionDto } from '@igw/contracts';
import { INTENTION_STATUSES, type IntentionStatus } from '../../domain/intention';
import { parsePageQuery, toPage, type QueryValue } from '../paging';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionDto } from './views';

export interface IntentionPage {
  data: IntentionDto[];
  next_cursor: string | null;
}

/** The org's intentions, newest first, optionally by status, keyset-paged. */
@Injectable()
export class ListIntentionsUseCase {
  constructor(@Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository) {}

  async execute(caller: Caller, query: { status?: QueryValue; limit?: QueryValue; cursor?: QueryValue }): Promise<IntentionPage> {
    const page = parsePageQuery(query);
    let status: IntentionStatus | undefined;
    if (query.status !== undefined) {
      if (typeof query.status !== 'string' || !(INTENTION_STATUSES as readonly string[]).includes(query.status)) {
        const message = `status must be one of ${INTENTION_STATUSES.join(', ')}`;
        throw invalidRequest(message, [{ path: 'status', message }]);
      }
      status = query.status as IntentionStatus;
    }
    const rows = await this.intentions.list(caller.orgId, { status }, { limit: page.limit + 1, after: page.after });
    const { items, nextCursor } = toPage(rows, page.limit);
    return { data: items.map(toIntentionDto), next_cursor: nextCursor };
  }
}
