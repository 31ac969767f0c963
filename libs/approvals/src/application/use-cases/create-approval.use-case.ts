import { Injectable } from '@nestjs/common';
import { newId, type Caller } from '@igw/kernel';
import { Topics, type ApprovalCandidateDto, type ApprovalDto, type CreateApprovalRequestDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { requestApproval, type ApprovalCandidate } from '../../domain/approval';
import { toApprovalDto, toApprovalEvent } from './views';
import { ApprovalUseCase } from './approval-use-case';

/** The wire's candidates in the domain's shape; anything malformed is passed on for the domain to refuse (400). */
function fromCandidateDtos(candidates: CreateApprovalRequestDto['candidates']): ApprovalCandidate[] | undefined {
  if (!Array.isArray(candidates)) return candidates as undefined;
  return candidates.map((c: Partial<ApprovalCandidateDto> | null) => ({
    intentLabel: c?.intent_label as string,
    intentionId: c?.intention_id as string,
    confidence: c?.confidence as number,
  }));
}

/** Who asks for an approval or uses one: a service acting for the caller's org and key. */
export type ApprovalRequester = Pick<Caller, 'orgId' | 'keyId'>;

/**
 * Queues a pending approval request for a call (from evaluate or the decision proxy) and emits
 * approval.requested. Committed when it resolves: GET /v1/approvals lists it at once. While the
 * same call (fingerprint) already waits for a decision, that request is answered instead.
 */
@Injectable()
export class CreateApprovalUseCase extends ApprovalUseCase {
  async execute(caller: ApprovalRequester, input: CreateApprovalRequestDto): Promise<ApprovalDto> {
    const now = this.clock.now();
    const approval = requestApproval(
      newId('apr'),
      caller.orgId,
      caller.keyId,
      {
        source: input.source,
        intentLabel: input.intent_label,
        intentCardId: input.intent_card_id,
        toolName: input.tool_name,
        operation: input.operation,
        summary: input.summary,
        userId: input.user_id,
        fingerprint: input.fingerprint,
        ttlSeconds: input.ttl_seconds,
        reasonCode: input.reason_code,
        candidates: fromCandidateDtos(input.candidates),
        toolCall: input.tool_call,
        conversationContext: input.conversation_context,
      },
      now,
    );
    const saved = await this.approvals.create(approval, (a) => [envelope(Topics.ApprovalRequested, a.orgId, toApprovalEvent(a), now)]);
    return toApprovalDto(saved.approval, now);
  }
}
