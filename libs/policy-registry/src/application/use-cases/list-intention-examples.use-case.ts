import { Inject, Injectable } from '@nestjs/common';
import { foundOr404, type Caller } from '@igw/kernel';
import type { IntentionExampleDto } from '@igw/contracts';
import { parsePageQuery, toPage, type QueryValue } from '../paging';
import { INTENTION_EXAMPLE_REPOSITORY, type IntentionExampleRepository } from '../ports/intention-example.repository.port';
import { INTENTION_REPOSITORY, type IntentionRepository } from '../ports/intention.repository.port';
import { toIntentionExampleDto } from './views';

export interface IntentionExamplePage {
  data: IntentionExampleDto[];
  next_cursor: string | null;
}

/** An intention's examples, newest first, keyset-paged; unknown or another org's intention → 404. */
@Injectable()
export class ListIntentionExamplesUseCase {
  constructor(
    @Inject(INTENTION_REPOSITORY) private readonly intentions: IntentionRepository,
    @Inject(INTENTION_EXAMPLE_REPOSITORY) private readonly examples: IntentionExampleRepository,
  ) {}

  async execute(caller: Caller, intentionId: string, query: { limit?: QueryValue; cursor?: QueryValue }): Promise<IntentionExamplePage> {
    const page = parsePageQuery(query);
    foundOr404(await this.intentions.findById(caller.orgId, intentionId), 'intention');
    const rows = await this.examples.list(caller.orgId, intentionId, { limit: page.limit + 1, after: page.after });
    const { items, nextCursor } = toPage(rows, page.limit);
    return { data: items.map(toIntentionExampleDto), next_cursor: nextCursor };
  }
}
