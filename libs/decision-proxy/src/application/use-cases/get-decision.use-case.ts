import { Inject, Injectable } from '@nestjs/common';
import type { DecisionRecordDto } from '@igw/contracts';
import { foundOr404, type Caller } from '@igw/kernel';
import { DECISION_REPOSITORY, type DecisionRepository } from '../ports/decision.repository.port';
import { toDecisionRecordDto } from './decision-views';

/**
 * `GET /v1/mcp-proxy/decisions/{decision_id}`: a recorded decision of the caller's org (another
 * org's id is a 404). A decision is durable when answered and readable here once the journal has
 * drained it (well under a second).
 */
@Injectable()
export class GetDecisionUseCase {
  constructor(@Inject(DECISION_REPOSITORY) private readonly decisions: DecisionRepository) {}

  async execute(caller: Caller, decisionId: string): Promise<DecisionRecordDto> {
    return toDecisionRecordDto(foundOr404(await this.decisions.findByDecisionId(caller.orgId, decisionId), 'decision'));
  }
}
