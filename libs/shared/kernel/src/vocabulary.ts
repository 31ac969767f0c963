/**
 * The gateway's closed vocabularies, defined once. Domains use them as they are; `@igw/contracts`
 * re-exports them for the DTOs and event payloads, so a wire list can never drift from the rule
 * that interprets it.
 */

/** What an intention is for (DESIGN 6.3). */
export const INTENT_CLASSES = ['reporting', 'export', 'admin', 'lookup', 'analysis', 'write', 'other'] as const;
export type IntentClass = (typeof INTENT_CLASSES)[number];

export const INTENTION_STATUSES = ['draft', 'active', 'archived'] as const;
export type IntentionStatus = (typeof INTENTION_STATUSES)[number];

/** The five outcomes of `POST /v1/intent/evaluate` (spec 0.6.0). */
export const EVALUATION_OUTCOMES = ['allowed', 'denied', 'pending_approval', 'approved', 'shadow_denied'] as const;
export type EvaluationOutcome = (typeof EVALUATION_OUTCOMES)[number];

/** Why `POST /v1/grants/verify` finds a grant invalid. */
export const GRANT_INVALID_REASONS = ['expired', 'bad_signature', 'other_org', 'malformed', 'wrong_type', 'other_call'] as const;
export type GrantInvalidReason = (typeof GRANT_INVALID_REASONS)[number];

/** Approval requests (DESIGN 6.10). */
export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const APPROVAL_SOURCES = ['evaluate', 'mcp_proxy'] as const;
export type ApprovalSource = (typeof APPROVAL_SOURCES)[number];
/**
 * Why a call waits for a human (DESIGN 6.15): the matched intention requires approval, or the
 * classifier is not certain which intention (if any) covers the call.
 */
export const APPROVAL_REASON_CODES = ['approval_required', 'uncertain_match'] as const;
export type ApprovalReasonCode = (typeof APPROVAL_REASON_CODES)[number];

/** Mandates (DESIGN 6.8) and the secret brokers a dispense may go through. */
export const MANDATE_STATUSES = ['active', 'expired', 'revoked'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];
export const BROKER_KINDS = ['vault', 'conjur'] as const;
export type BrokerKind = (typeof BROKER_KINDS)[number];

/** The review queue of `defer` decisions. */
export const REVIEW_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** A webhook delivery's life (DESIGN 6.11). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'exhausted', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
