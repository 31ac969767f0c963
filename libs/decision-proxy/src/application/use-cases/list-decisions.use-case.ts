import { Inject, Injectable, Optional } from '@nestjs/common';
import type { DecisionCallDto, DecisionRecordListDto } from '@igw/contracts';
import { CLOCK, DEFAULT_CALL_RETENTION, retentionCutoff, systemClock, toPage, type Caller, type CallRetention, type Clock, type QueryValue } from '@igw/kernel';
import { parseDecisionListQuery, type DecisionCall } from '../../domain';
import { DECISION_CALLS, type DecisionCalls } from '../ports/decision-calls.port';
import { DECISION_REPOSITORY, type DecisionRepository } from '../ports/decision.repository.port';
import { DECISION_CALL_RETENTION } from '../retention/call-retention.options';
import { toDecisionRecordDto } from './decision-views';

const toCallDto = (c: DecisionCall): DecisionCallDto => ({ action: c.action, ...(c.context !== undefined ? { context: c.context } : {}) });

/**
 * `GET /v1/mcp-proxy/decisions`: the org's decisions, newest first, by mandate, kind and time;
 * with `include=call`, each with the call it decided while that is kept (DESIGN 6.16). Any key of
 * the org may read them (read_only and up), as it may read the decisions themselves.
 */
@Injectable()
export class ListDecisionsUseCase {
  constructor(
    @Inject(DECISION_REPOSITORY) private readonly decisions: DecisionRepository,
    @Inject(DECISION_CALLS) private readonly calls: DecisionCalls,
    @Optional() @Inject(DECISION_CALL_RETENTION) private readonly retention: CallRetention = DEFAULT_CALL_RETENTION,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  async execute(
    caller: Caller,
    query: { limit?: QueryValue; cursor?: QueryValue; cred_id?: QueryValue; kind?: QueryValue; since?: QueryValue; until?: QueryValue; include?: QueryValue },
  ): Promise<DecisionRecordListDto> {
    const q = parseDecisionListQuery(query);
    const rows = await this.decisions.listDecisions(caller.orgId, q);
    const page = toPage(
      rows.map((r) => ({ createdAt: r.createdAt, id: r.decisionId, record: r })),
      q.limit,
    );
    const data = page.items.map((k) => toDecisionRecordDto(k.record));
    if (!q.includeCall) return { data, next_cursor: page.nextCursor };
    // A call past the window is never shown, whether or not the purge has run yet.
    const since = retentionCutoff(this.clock.now(), this.retention);
    const calls = await this.calls.callsOf(
      caller.orgId,
      data.map((d) => d.decision_id),
      since,
    );
    return {
      data: data.map((d) => {
        const call = calls.get(d.decision_id);
        return { ...d, call: call ? toCallDto(call) : null };
      }),
      next_cursor: page.nextCursor,
    };
  }
}
