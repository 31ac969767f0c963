import type { DecisionMadeV1 } from '@igw/contracts';
import type { DecisionRecord } from '../domain';
import { decisionCallFields } from './decision-call-fields';

/** The decision.made v1 payload of a record (no arguments, no kind fields beyond the summary). */
export function toDecisionMadeV1(r: DecisionRecord): DecisionMadeV1 {
  return {
    decision_id: r.decisionId,
    kind: r.kind,
    rule_id: r.ruleId,
    reason: r.reason,
    shadow_decision: r.shadowKind,
    ...decisionCallFields(r),
    created_at: r.createdAt.toISOString(),
  };
}
