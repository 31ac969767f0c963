import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EvaluatedCallDto, IntentHistoryDto } from '@igw/contracts';
import { CLOCK, systemClock, toPage, type Caller, type Clock, type QueryValue } from '@igw/kernel';
import { parseHistoryQuery } from '../../domain/history/history-query';
import { DEFAULT_CALL_RETENTION, retentionCutoff, type CallRetention, type RetainedCall } from '../../domain/evaluation/retained-call';
import { INTENT_EVENT_STORE, toIntentEvaluatedV1, type IntentEventStore } from '../ports/intent-event.repository.port';
import { CALL_RETENTION } from '../retention/call-retention.options';

const toCallDto = (c: RetainedCall): EvaluatedCallDto => ({
  tool_call: { name: c.toolName, ...(c.arguments !== undefined ? { arguments: c.arguments } : {}) },
  ...(c.conversationContext !== undefined ? { conversation_context: c.conversationContext } : {}),
});

/**
 * `GET /v1/intent/history` (DESIGN 6.6): the caller's org's evaluations, newest first; with
 * `include=call`, each with the call it decided while that is kept (DESIGN 6.16). Any key of the
 * org may read them (read_only and up), as it may read the history itself.
 */
@Injectable()
export class ListIntentHistoryUseCase {
  constructor(
    @Inject(INTENT_EVENT_STORE) private readonly events: IntentEventStore,
    @Optional() @Inject(CALL_RETENTION) private readonly retention: CallRetention = DEFAULT_CALL_RETENTION,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  async execute(
    caller: Caller,
    query: { limit?: QueryValue; outcome?: QueryValue; since?: QueryValue; cursor?: QueryValue; include?: QueryValue },
  ): Promise<IntentHistoryDto> {
    const q = parseHistoryQuery(query);
    // A call past the window is never shown, whether or not the purge has run yet.
    const callsSince = q.includeCall ? retentionCutoff(this.clock.now(), this.retention) : null;
    const page = toPage(await this.events.page(caller.orgId, { ...q, callsSince }), q.limit);
    return {
      data: page.items.map((e) => (q.includeCall ? { ...toIntentEvaluatedV1(e), call: e.call ? toCallDto(e.call) : null } : toIntentEvaluatedV1(e))),
      next_cursor: page.nextCursor,
    };
  }
}
