import type { DecisionDto, DecisionRecordDto, ReviewDto } from '@igw/contracts';
import { defined } from '@igw/kernel';
import type { DecisionRecord } from '../../domain';
import { decisionCallFields } from '../decision-call-fields';

export function toDecisionRecordDto(r: DecisionRecord): DecisionRecordDto {
  return {
    decision_id: r.decisionId,
    decision: r.decision as DecisionDto,
    ...decisionCallFields(r),
    audience: r.audience,
    arguments_sha256: r.argumentsSha256,
    requested_by_key_id: r.keyId,
    created_at: r.createdAt.toISOString(),
  };
}

export function toReviewDto(r: DecisionRecord): ReviewDto {
  return {
    review_id: defined(r.reviewId, `review id of decision ${r.decisionId}`),
    status: r.reviewStatus ?? 'pending',
    ...toDecisionRecordDto(r),
    reviewed_at: r.reviewedAt?.toISOString() ?? null,
    reviewed_by_key_id: r.reviewedByKeyId,
    note: r.reviewNote,
  };
}
