import { EVALUATION_OUTCOMES, type EvaluationOutcome } from '@igw/kernel';
import type { DataElementResult } from './data-elements';

/** The five outcomes of `POST /v1/intent/evaluate` (spec 0.6.0), defined once in the kernel. */
export { EVALUATION_OUTCOMES, type EvaluationOutcome };

export const isEvaluationOutcome = (value: unknown): value is EvaluationOutcome =>
  typeof value === 'string' && (EVALUATION_OUTCOMES as readonly string[]).includes(value);

/** `policy_id` of a call that matched no intention. */
export const AMBIENT_POLICY_ID = 'ambient';

/** What the outcome needs of the matched intention (structurally the registry's `Intention`). */
export interface OutcomeIntention {
  id: string;
  version: number;
  approvalRequired: boolean;
}

export interface OutcomeInput {
  /** The matched active intention; null when classification fell to the ambient cluster. */
  intention: OutcomeIntention | null;
  /**
   * Whether the match is certain (a binding, an example, a confidence at the bar) or a candidate
   * nobody is sure of (DESIGN 6.15). Absent: certain.
   */
  match?: 'certain' | 'uncertain';
  dataElements: DataElementResult;
  shadowMode: boolean;
  /** An approved, not yet used approval exists for this call's fingerprint. */
  approvedApprovalAvailable: boolean;
}

/** Why an enforced evaluation would not simply be allowed. */
export type OutcomeReason = 'ambient' | 'data_element_refused' | 'approval_required' | 'uncertain_match';

export interface OutcomeDecision {
  outcome: EvaluationOutcome;
  /** `<intention id>@<version>`, or `ambient`. */
  policyId: string;
  /** Create an approval request (visible before the response returns) → `approval_request_id`. */
  needsApprovalRequest: boolean;
  /** Mark the available approved approval as used, atomically with recording this evaluation. */
  consumesApproval: boolean;
  /** Issue a grant: only for `allowed` and `approved`. */
  grantable: boolean;
  /** Why enforcement denies or holds the call (set under shadow mode too); null when it passes. */
  reason: OutcomeReason | null;
}

export const policyIdOf = (intention: OutcomeIntention | null): string => (intention === null ? AMBIENT_POLICY_ID : `${intention.id}@${intention.version}`);

/**
 * The outcome rules of DESIGN 6.4 and 6.15, in order: ambient → denied; a refused data element →
 * denied (even when approval is required: an approval cannot widen the intention's data list); an
 * uncertain match → a human decides (never an allow on a guess): approved when an approved
 * approval for the same call is unused, otherwise pending_approval; approval required → the same;
 * else allowed.
 *
 * Shadow mode only changes *blocking* outcomes: a would-be `denied` or `pending_approval` is
 * reported as `shadow_denied`, with no approval request and no grant (a grant is a credential
 * and only ever attests what policy allows). An `allowed` or `approved` call is not blocked, so
 * shadow mode leaves it as it is — including the one-time use of the approval, since otherwise
 * `shadow_mode: true` would mint any number of grants from a single approval.
 */
export function decideOutcome(input: OutcomeInput): OutcomeDecision {
  const policyId = policyIdOf(input.intention);
  const pass = (outcome: 'allowed' | 'approved'): OutcomeDecision => ({
    outcome,
    policyId,
    needsApprovalRequest: false,
    consumesApproval: outcome === 'approved',
    grantable: true,
    reason: null,
  });
  const block = (outcome: 'denied' | 'pending_approval', reason: OutcomeReason): OutcomeDecision => ({
    outcome: input.shadowMode ? 'shadow_denied' : outcome,
    policyId,
    needsApprovalRequest: !input.shadowMode && outcome === 'pending_approval',
    consumesApproval: false,
    grantable: false,
    reason,
  });

  if (input.intention === null) return block('denied', 'ambient');
  if (!input.dataElements.ok) return block('denied', 'data_element_refused');
  if (input.match === 'uncertain') return input.approvedApprovalAvailable ? pass('approved') : block('pending_approval', 'uncertain_match');
  if (input.intention.approvalRequired) return input.approvedApprovalAvailable ? pass('approved') : block('pending_approval', 'approval_required');
  return pass('allowed');
}

/** Whether a call needs a human's approval before it may pass: its match is uncertain or its intention asks for one. */
export function needsApproval(intention: OutcomeIntention | null, match: 'certain' | 'uncertain'): boolean {
  return intention !== null && (match === 'uncertain' || intention.approvalRequired);
}
