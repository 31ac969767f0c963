import { Inject, Injectable } from '@nestjs/common';
import type { ResolveReviewDto, ReviewDto } from '@igw/contracts';
import { CLOCK, conflict, notFound, type Caller, type Clock } from '@igw/kernel';
import { DECISION_REPOSITORY, type DecisionRepository } from '../ports/decision.repository.port';
import { toReviewDto } from './decision-views';

/** `POST /v1/mcp-proxy/reviews/{review_id}/resolve`: an operator accepts or rejects a deferred call, once. */
@Injectable()
export class ResolveReviewUseCase {
  constructor(
    @Inject(DECISION_REPOSITORY) private readonly decisions: DecisionRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, reviewId: string, body: ResolveReviewDto): Promise<ReviewDto> {
    const result = await this.decisions.resolveReview(caller.orgId, reviewId, {
      status: body.status,
      keyId: caller.keyId,
      note: body.note ?? null,
      at: this.clock.now(),
    });
    if (result.ok) return toReviewDto(result.record);
    if (result.reason === 'not_found') throw notFound('review');
    throw conflict('invalid_transition', `review ${reviewId} is already ${result.record?.reviewStatus ?? 'resolved'}`);
  }
}
