import { Inject, Injectable } from '@nestjs/common';
import { REVIEW_STATUSES, type ReviewListDto, type ReviewStatusDto } from '@igw/contracts';
import { defined, invalidRequest, parseKeysetQuery, single, toPage, type Caller, type QueryValue } from '@igw/kernel';
import { DECISION_REPOSITORY, type DecisionRepository } from '../ports/decision.repository.port';
import { toReviewDto } from './decision-views';

/** `GET /v1/mcp-proxy/reviews`: the org's deferred calls, newest first (the operator's review queue). */
@Injectable()
export class ListReviewsUseCase {
  constructor(@Inject(DECISION_REPOSITORY) private readonly decisions: DecisionRepository) {}

  async execute(caller: Caller, query: { status?: QueryValue; limit?: QueryValue; cursor?: QueryValue }): Promise<ReviewListDto> {
    const page = parseKeysetQuery(query, { defaultLimit: 50 });
    const status = single('status', query.status);
    if (status !== undefined && !(REVIEW_STATUSES as readonly string[]).includes(status)) {
      const message = `status must be one of ${REVIEW_STATUSES.join(', ')}`;
      throw invalidRequest(message, [{ path: 'status', message }]);
    }
    const rows = await this.decisions.listReviews(caller.orgId, { status: status as ReviewStatusDto | undefined, limit: page.limit, after: page.after });
    const page_ = toPage(
      rows.map((r) => ({ createdAt: r.createdAt, id: defined(r.reviewId, `review id of decision ${r.decisionId}`), record: r })),
      page.limit,
    );
    return { data: page_.items.map((k) => toReviewDto(k.record)), next_cursor: page_.nextCursor };
  }
}
