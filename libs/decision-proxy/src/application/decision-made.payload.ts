import type { DecisionMadeV1 } from '@igw/contracts';
import type { DecisionRecord } from '../domain';

/** The decision.made v1 payload of a record (no arguments, no kind fields beyond the summary). */
export function toDecisionMadeV1(r: DecisionRecord): DecisionMadeV1 {
  return {
    decision_id: r.decisionId,
    kind: r.kind,
    rule_id: r.ruleId,
    reason: r.reason,
    shadow_decision: r.shadowKind,
    cred_id: r.credId,
    intent_id: r.intentId,
    prompt_id: r.promptId,
    actor: r.actor,
    surface: r.surface,
    operation: r.operation,
    target_resource: r.targetResource,
    created_at: r.createdAt.toISOString(),
  };
}
