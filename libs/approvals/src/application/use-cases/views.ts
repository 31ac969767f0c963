import type { ApprovalDto, ApprovalEventV1 } from '@igw/contracts';
import { asOf, type Approval } from '../../domain/approval';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** approval.* v1 payload: the whole request after the change (the envelope carries the org). */
export function toApprovalEvent(a: Approval): ApprovalEventV1 {
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
  };
}

/** The public view at `now`: the event's fields plus the org, with a pending request past its deadline read as expired. */
export function toApprovalDto(stored: Approval, now: Date): ApprovalDto {
  const a = asOf(stored, now);
  // The 6.15 fields (uncertain matches) are the approvals engineer's; until then: none.
  return { ...toApprovalEvent(a), org_id: a.orgId, reason_code: null, candidates: [], tool_call: null };
}
