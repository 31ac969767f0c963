import { REVIEW_STATUSES, type DecisionKind, type ReviewStatus } from '@igw/kernel';
import type { DecisionStage } from './decision';
import type { DecisionCall } from './decision-call';

/**
 * A decision as it was answered and is kept: `kind`, `decision_id`, `rule_id` when a rule decided,
 * the kind's fields (`approval_request_id` also on an `allow` that spent an approval). The REST
 * answer and the MCP proxy's tool result show it as it is.
 */
export type AnsweredDecision = { kind: DecisionKind; decision_id: string; rule_id?: string } & Record<string, unknown>;

/** The review queue's states (`ReviewDto.status`). */
export { REVIEW_STATUSES, type ReviewStatus };

/**
 * What is kept of every decision (DESIGN 6.9: "every decision … is recorded"). The record keeps
 * the call's arguments only as the sha256 of their canonical JSON: enough to tell two calls apart
 * in an audit for ever; the call itself (`call`) is kept only for the retention window.
 */
export interface DecisionRecord {
  decisionId: string;
  orgId: string;
  /** The API key that asked. */
  keyId: string;
  kind: DecisionKind;
  ruleId: string | null;
  stage: DecisionStage;
  /** `deny` reason; null for other kinds. */
  reason: string | null;
  /** The kind a shadow decision stands for (allow_with_shadow), else null. */
  shadowKind: DecisionKind | null;
  decision: AnsweredDecision;
  credId: string;
  intentId: string;
  /** null: the mandate was bound to no prompt. */
  promptId: string | null;
  actor: string;
  audience: string;
  surface: string;
  operation: string;
  targetResource: string | null;
  argumentsSha256: string;
  approvalRequestId: string | null;
  /** Set for `defer`: the review queue entry. */
  reviewId: string | null;
  reviewStatus: ReviewStatus | null;
  reviewedAt: Date | null;
  reviewedByKeyId: string | null;
  reviewNote: string | null;
  createdAt: Date;
  /**
   * The call as decided, kept beside the record for the retention window (DESIGN 6.16); null or
   * absent when retention is off or the call is over the cap. Stored apart, read with include=call.
   */
  call?: DecisionCall | null;
}
