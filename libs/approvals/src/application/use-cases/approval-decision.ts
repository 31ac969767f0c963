import { Inject } from '@nestjs/common';
import { CLOCK, conflict, notFound, type Caller, type Clock } from '@igw/kernel';
import { POLICY_REGISTRY_API, type ApprovalDto, type TeachFromApprovalDto } from '@igw/contracts';
import { envelope } from '@igw/events';
import { assertDecidable, type Approval } from '../../domain/approval';
import { lessonsOf } from '../../domain/approval-teaching';
import { APPROVAL_REPOSITORY, type ApprovalRepository } from '../ports/approval.repository.port';
import type { RegistryTeacher } from '../ports/registry-teacher.port';
import { toApprovalDto, toApprovalEvent } from './views';

/**
 * How long a decision that teaches holds its reservation of the request: longer than the
 * registry's answer may take (its client gives up after 5 s), short enough that a decider that
 * died does not block the request for long.
 */
export const TEACHING_LEASE_MS = 60_000;

/** How a decision applies to the request, and what it teaches the registry first (if anything). */
export interface DecisionPlan {
  apply: (current: Approval, now: Date) => Approval;
  teach: TeachFromApprovalDto | null;
}

/** The registry request `remember` makes: the stored call as examples (DESIGN 6.15). */
export function teachRequest(a: Approval, decision: 'approved' | 'denied', correctedLabel?: string | null): TeachFromApprovalDto | null {
  const examples = lessonsOf(a, decision, correctedLabel).map((l) => ({ intention_label: l.intentionLabel, covered: l.covered }));
  if (a.toolCall === null || examples.length === 0) return null;
  return {
    approval_id: a.id,
    tool_call: a.toolCall,
    ...(a.conversationContext ? { conversation_context: a.conversationContext } : {}),
    examples,
  };
}

/**
 * What approving and denying share: load the request in the caller's org (404 if absent), check
 * it can be decided by the caller (403 self_approval, then 409 invalid_transition), let the
 * subclass check its body and plan the change, teach the registry, then apply the domain decision
 * and save it with its event; of concurrent decisions one wins.
 *
 * No half-taught state: the examples are stored before the transition, and the transition is not
 * tried when storing them fails (the request stays pending, the registry's error surfaces). When
 * the transition then fails (a concurrent decision won: 409), what was taught is forgotten and
 * the transition's error surfaces. Decisions that teach reserve the request first (409
 * decision_in_progress while another one teaches), because the registry keys what it stores by
 * approval: a loser's forgetting must never undo the winner's lesson.
 */
export abstract class ApprovalDecisionUseCase {
  constructor(
    @Inject(APPROVAL_REPOSITORY) protected readonly approvals: ApprovalRepository,
    @Inject(CLOCK) protected readonly clock: Clock,
    @Inject(POLICY_REGISTRY_API) protected readonly registry: RegistryTeacher,
  ) {}

  protected async decide(
    caller: Caller,
    id: string,
    topic: { name: string; version: number },
    plan: (current: Approval, now: Date) => DecisionPlan | Promise<DecisionPlan>,
  ): Promise<ApprovalDto> {
    const now = this.clock.now();
    const current = await this.approvals.findById(caller.orgId, id);
    if (!current) throw notFound('approval request');
    assertDecidable(current, caller.keyId, now);
    const { apply, teach } = await plan(current, now);
    // A dry run: every refusal of the decision itself (its reason included) comes before teaching.
    apply(current, now);
    if (teach) await this.teachFirst(caller, current, teach, now);
    let saved: Approval | null;
    try {
      saved = await this.approvals.update(
        caller.orgId,
        id,
        (latest) => apply(latest, now),
        (a) => [envelope(topic, a.orgId, toApprovalEvent(a), now)],
      );
      if (!saved) throw notFound('approval request');
    } catch (error) {
      // The decision did not happen, so neither may its lesson. Should forgetting fail too, the
      // decision's own error still answers: it is what the operator must act on.
      if (teach) {
        await this.registry.forgetTaught(caller.orgId, id).catch(() => undefined);
        // Still pending when the store failed (503): the operator may retry at once.
        await this.approvals.releaseTeaching(caller.orgId, id, caller.keyId).catch(() => undefined);
      }
      throw error;
    }
    return toApprovalDto(saved, now);
  }

  /** Reserves the request, then stores the lesson; a refusal of either leaves the request pending and unreserved. */
  private async teachFirst(caller: Caller, current: Approval, teach: TeachFromApprovalDto, now: Date): Promise<void> {
    const until = new Date(now.getTime() + TEACHING_LEASE_MS);
    if (!(await this.approvals.reserveForTeaching(caller.orgId, current.id, caller.keyId, now, until))) {
      // Decided meanwhile (409 invalid_transition) or gone (404); else another decision is teaching.
      const latest = await this.approvals.findById(caller.orgId, current.id);
      if (!latest) throw notFound('approval request');
      assertDecidable(latest, caller.keyId, now);
      throw conflict('decision_in_progress', 'another decision on this approval request is storing what it teaches; retry shortly');
    }
    try {
      await this.registry.teach(caller.orgId, teach);
    } catch (error) {
      await this.approvals.releaseTeaching(caller.orgId, current.id, caller.keyId).catch(() => undefined);
      throw error;
    }
  }
}
