import type { ApprovalCandidateDto, ApprovalDto, ApprovalEventV1 } from '@igw/contracts';
import { asOf, type Approval, type ApprovalCandidate } from '../../domain/approval';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toCandidateDto = (c: ApprovalCandidate): ApprovalCandidateDto => ({
  intent_label: c.intentLabel,
  intention_id: c.intentionId,
  confidence: c.confidence,
});

/**
 * approval.* v1 payload: the whole request after the change (the envelope carries the org), less
 * the conversation context (kept to teach from, never shown).
 */
export function toApprovalEvent(a: Approval): ApprovalEventV1 & Pick<ApprovalDto, 'reason_code' | 'candidates' | 'tool_call'> {
  return {
    id: a.id,
    status: a.status,
    source: a.source,
    intent_label: a.intentLabel,
    intent_card_id: a.intentCardId,
    tool_name: a.toolName,
    operation: a.operation,
    summary: a.summary,
    requested_by_key_id: a.requestedByKeyId,
    user_id: a.userId,
    created_at: a.createdAt.toISOString(),
    expires_at: a.expiresAt.toISOString(),
    decided_at: iso(a.decidedAt),
    decided_by_key_id: a.decidedByKeyId,
    reason: a.reason,
    reason_code: a.reasonCode,
    candidates: a.candidates.map(toCandidateDto),
    tool_call: a.toolCall,
  };
}

/** The public view at `now`: the event's fields plus the org, with a pending request past its deadline read as expired. */
export function toApprovalDto(stored: Approval, now: Date): ApprovalDto {
  const a = asOf(stored, now);
  return { ...toApprovalEvent(a), org_id: a.orgId };
}
