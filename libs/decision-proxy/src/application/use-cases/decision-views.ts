import type { DecisionDto, DecisionRecordDto, ReviewDto } from '@igw/contracts';
import type { DecisionRecord } from '../../domain';
import { defined } from '@igw/kernel';

export function toDecisionRecordDto(r: DecisionRecord): DecisionRecordDto {
  return {
    decision_id: r.decisionId,
    decision: r.decision as DecisionDto,
    cred_id: r.credId,
    intent_id: r.intentId,
    prompt_id: r.promptId,
    actor: r.actor,
    audience: r.audience,
    surface: r.surface,
    operation: r.operation,
    target_resource: r.targetResource,
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
