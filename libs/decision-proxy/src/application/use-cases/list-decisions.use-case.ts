import { Inject, Injectable } from '@nestjs/common';
import type { DecisionRecordListDto } from '@igw/contracts';
import { toPage, type Caller, type QueryValue } from '@igw/kernel';
import { parseDecisionListQuery } from '../../domain';
import { DECISION_REPOSITORY, type DecisionRepository } from '../ports/decision.repository.port';
import { toDecisionRecordDto } from './decision-views';

/** `GET /v1/mcp-proxy/decisions`: the org's decisions, newest first, by mandate, kind and time. */
@Injectable()
export class ListDecisionsUseCase {
  constructor(@Inject(DECISION_REPOSITORY) private readonly decisions: DecisionRepository) {}

  async execute(
    caller: Caller,
    query: { limit?: QueryValue; cursor?: QueryValue; cred_id?: QueryValue; kind?: QueryValue; since?: QueryValue; until?: QueryValue },
  ): Promise<DecisionRecordListDto> {
    const q = parseDecisionListQuery(query);
    const rows = await this.decisions.listDecisions(caller.orgId, q);
    const page = toPage(
      rows.map((r) => ({ createdAt: r.createdAt, id: r.decisionId, record: r })),
      q.limit,
    );
    return { data: page.items.map((k) => toDecisionRecordDto(k.record)), next_cursor: page.nextCursor };
  }
}
