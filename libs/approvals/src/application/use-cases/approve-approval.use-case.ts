import { Injectable } from '@nestjs/common';
import { AppError, type Caller } from '@igw/kernel';
import { Topics, type ApprovalDto, type ApproveApprovalDto } from '@igw/contracts';
import { approve, type Approval, type MatchCorrection } from '../../domain/approval';
import { assertTeachable } from '../../domain/approval-teaching';
import { ApprovalDecisionUseCase, teachRequest, type DecisionPlan } from './approval-decision';

/**
 * pending → approved and approval.approved. The requesting key may not (403 self_approval); a
 * decided or expired request is 409 invalid_transition; of concurrent approvals one wins.
 * Legacy-path requests (DESIGN 6.15) may be corrected (`intent_label`: an active intention of the
 * org, 404 intent_not_found otherwise) and remembered (`remember`: the call becomes an example).
 */
@Injectable()
export class ApproveApprovalUseCase extends ApprovalDecisionUseCase {
  execute(caller: Caller, id: string, input: ApproveApprovalDto = {}): Promise<ApprovalDto> {
    return this.decide(caller, id, Topics.ApprovalApproved, (current) => this.plan(caller, current, input));
  }

  private async plan(caller: Caller, current: Approval, input: ApproveApprovalDto): Promise<DecisionPlan> {
    const intentLabel = input.intent_label ?? null;
    assertTeachable(current, { remember: input.remember, intentLabel });
    const correction = intentLabel === null ? null : await this.correction(caller, current, intentLabel);
    return {
      apply: (latest, now) => approve(latest, caller.keyId, now, { reason: input.reason, correction }),
      teach: input.remember === true ? teachRequest(current, 'approved', intentLabel) : null,
    };
  }

  /** The corrected intention must be an active one of the caller's org. */
  private async correction(caller: Caller, current: Approval, intentLabel: string): Promise<MatchCorrection> {
    const { intentions } = await this.registry.activeIntentions(caller.orgId);
    if (!intentions.some((i) => i.label === intentLabel)) {
      const message = `intent_label ${intentLabel} is not an active intention of this org`;
      throw new AppError('not_found', 'intent_not_found', message, { details: [{ path: 'intent_label', message }] });
    }
    const candidate = intentions.find((i) => i.label === current.intentLabel);
    return { intentLabel, candidateIntentionId: candidate?.id ?? current.candidates.find((c) => c.intentLabel === current.intentLabel)?.intentionId ?? '' };
  }
}
