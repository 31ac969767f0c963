import type { DecisionKind } from '@igw/kernel';

/**
 * The kinds that stop the requested action from running as asked: the spec's "Block" kinds
 * (approval, step_up, deny, deny_with_reroute) and the two that answer with something other than
 * the action (negotiate: a narrower request back to the agent; substitute: a different action).
 * These are what shadow mode turns into `allow_with_shadow`. The others proceed with the action
 * (allow_*, and defer, which proceeds and queues it for review) and are never shadowed.
 */
export const BLOCKING_KINDS: ReadonlySet<DecisionKind> = new Set<DecisionKind>(['negotiate', 'substitute', 'approval', 'step_up', 'deny', 'deny_with_reroute']);

export const isBlocking = (kind: DecisionKind): boolean => BLOCKING_KINDS.has(kind);

/** The normalized action (spec: mcp-proxy request `action`). */
export interface ProxyAction {
  surface: string;
  operation: string;
  arguments?: Record<string, unknown>;
  target_resource?: string;
}

/** Why the engine denied: its own reasons, or a rule's `reason`. */
export const ENGINE_DENY_REASONS = ['confused_deputy', 'forbidden_operation', 'scope_outside_intent', 'scope_invalid', 'rule_error'] as const;
export type EngineDenyReason = (typeof ENGINE_DENY_REASONS)[number];
/** The reason of a rule's `deny` that names none. */
export const DEFAULT_RULE_DENY_REASON = 'rule_denied';

/** Decisions as they go on the wire (minus `decision_id` and `rule_id`, which the caller adds). */
export type Decision =
  | { kind: 'allow' }
  | { kind: 'allow_with_log_extra'; log_fields: Record<string, unknown> }
  | { kind: 'allow_with_redact'; redact_fields: string[] }
  | { kind: 'allow_with_downgrade'; downgraded_action: Record<string, unknown> }
  | { kind: 'allow_with_shadow'; shadow_decision: Decision }
  /** review_id is null until the application queues the review (see EngineResult.assign). */
  | { kind: 'defer'; review_id: string | null }
  | { kind: 'negotiate'; suggested_action: ProxyAction | Record<string, unknown>; message: string }
  | { kind: 'substitute'; replacement_action: Record<string, unknown> }
  /** approval_request_id is null until the application creates the request (see EngineResult.assign). */
  | { kind: 'approval'; approval_request_id: string | null }
  | { kind: 'step_up'; required_acr: string }
  | { kind: 'deny'; reason: string; message: string }
  | { kind: 'deny_with_reroute'; reroute_card_id: string; message: string };

/** Which check produced the decision (DESIGN 6.9 steps 5–9; shadow keeps the stage of what it shadows). */
export type DecisionStage = 'confused_deputy' | 'scope' | 'rule' | 'default';

export interface EngineResult {
  decision: Decision;
  /** The card rule that decided, or null (also set when a shadowed rule decision is the shadow_decision). */
  rule_id: string | null;
  stage: DecisionStage;
  /**
   * An id the application must create and fill in before answering: `review_id` for `defer`
   * (queue the review), `approval_request_id` for `approval` (create the approval request).
   * Null when nothing is to be created, including a shadowed approval (shadow never blocks, so no
   * request is opened; the shadow_decision keeps `approval_request_id: null`).
   */
  assign: 'review_id' | 'approval_request_id' | null;
}
