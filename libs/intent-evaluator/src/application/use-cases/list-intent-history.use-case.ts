import { Inject, Injectable } from '@nestjs/common';
import type { IntentHistoryDto } from '@igw/contracts';
import { toPage, type Caller, type QueryValue } from '@igw/kernel';
import { parseHistoryQuery } from '../../domain/history/history-query';
import { INTENT_EVENT_STORE, toIntentEvaluatedV1, type IntentEventStore } from '../ports/intent-event.repository.port';

/** `GET /v1/intent/history` (DESIGN 6.6): the caller's org's evaluations, newest first. */
@Injectable()
export class ListIntentHistoryUseCase {
  constructor(@Inject(INTENT_EVENT_STORE) private readonly events: IntentEventStore) {}

  async execute(caller: Caller, query: { limit?: QueryValue; outcome?: QueryValue; since?: QueryValue; cursor?: QueryValue }): Promise<IntentHistoryDto> {
    const q = parseHistoryQuery(query);
    const page = toPage(await this.events.page(caller.orgId, q), q.limit);
    return { data: page.items.map(toIntentEvaluatedV1), next_cursor: page.nextCursor };
  }
}
