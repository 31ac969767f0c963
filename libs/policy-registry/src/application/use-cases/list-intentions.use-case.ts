import { Inject, Injectable } from '@nestjs/common';
import { parseStatusFilter, type Caller } from '@igw/kernel';
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
    const status = parseStatusFilter<IntentionStatus>(query.status, INTENTION_STATUSES);
    const rows = await this.intentions.list(caller.orgId, { status }, { limit: page.limit + 1, after: page.after });
    const { items, nextCursor } = toPage(rows, page.limit);
    return { data: items.map(toIntentionDto), next_cursor: nextCursor };
  }
}
