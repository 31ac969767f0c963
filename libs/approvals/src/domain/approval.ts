import {
  APPROVAL_REASON_CODES,
  APPROVAL_SOURCES,
  APPROVAL_STATUSES,
  conflict,
  forbidden,
  invalidRequest,
  type ApprovalReasonCode,
  type ApprovalSource,
  type ApprovalStatus,
  type ErrorDetail,
} from '@igw/kernel';
import { checkedCall, type ApprovalCandidate, type ApprovalToolCall, type ConversationMessage } from './approval-call';

/** Approval requests (DESIGN 6.10): a call that needs a human's yes before it may proceed. */
export { APPROVAL_REASON_CODES, APPROVAL_SOURCES, APPROVAL_STATUSES, type ApprovalReasonCode, type ApprovalSource, type ApprovalStatus };
export type { ApprovalCandidate, ApprovalToolCall, ConversationMessage };

/** How long a request waits for a decision (and an approval stays usable), in seconds. */
export const APPROVAL_TTL_SECONDS = { min: 10, max: 7 * 24 * 3600, default: 900 } as const;

export interface Approval {
  id: string;
  orgId: string;
  /** As stored: a `pending` request past `expiresAt` is expired all the same (see `statusAt`). */
  status: ApprovalStatus;
  source: ApprovalSource;
  intentLabel: string | null;
  intentCardId: string | null;
  toolName: string | null;
  operation: string | null;
  summary: string;
  /** The API key whose call caused the request; it may not decide it. */
  requestedByKeyId: string;
  userId: string | null;
  /** Identity of the call (sha256 of its canonical form): the same call later uses the approval. */
  fingerprint: string;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
  decidedByKeyId: string | null;
  reason: string | null;
  /** When the approved call was let through; an approval lets one call through. */
  consumedAt: Date | null;
  /** Legacy path (DESIGN 6.15): why the call waits; null on mandate-path requests. */
  reasonCode: ApprovalReasonCode | null;
  /**
   * The candidate intentions of an uncertain match, best first; otherwise empty. When an operator
   * corrects the match, the original candidate stays here while `intentLabel` names the correction.
   */
  candidates: ApprovalCandidate[];
  /** Legacy path: the evaluated call, shown to the operator and what `remember` teaches; null on mandate-path requests. */
  toolCall: ApprovalToolCall | null;
  /** Legacy path: the conversation the call was evaluated with (taught with it; not shown). */
  conversationContext: ConversationMessage[] | null;
}

export interface NewApproval {
  source: ApprovalSource;
  intentLabel?: string | null;
  intentCardId?: string | null;
  toolName?: string | null;
  operation?: string | null;
  summary: string;
  userId?: string | null;
  fingerprint: string;
  ttlSeconds?: number;
  /** Evaluate-source only (ignored on mandate-path requests); absent = approval_required. */
  reasonCode?: ApprovalReasonCode | null;
  candidates?: readonly ApprovalCandidate[] | null;
  toolCall?: ApprovalToolCall | null;
  conversationContext?: readonly ConversationMessage[] | null;
}

const LIMITS = { label: 200, tool: 256, summary: 2000, user: 256, fingerprint: 128, reason: 1000 } as const;

function optionalText(details: ErrorDetail[], path: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) {
    details.push({ path, message: `${path} must be a string of at most ${max} characters` });
    return null;
  }
  return value;
}

function requiredText(details: ErrorDetail[], path: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    details.push({ path, message: `${path} must be a non-empty string of at most ${max} characters` });
    return '';
  }
  return value;
}

/**
 * A new pending request, expiring `ttlSeconds` (default 15 min) from now. The checks repeat the
 * HTTP contract because in-process callers do not pass through the validation pipe.
 */
export function requestApproval(id: string, orgId: string, requestedByKeyId: string, input: NewApproval, now: Date): Approval {
  const details: ErrorDetail[] = [];
  if (!(APPROVAL_SOURCES as readonly string[]).includes(input.source)) {
    details.push({ path: 'source', message: `source must be one of ${APPROVAL_SOURCES.join(', ')}` });
  }
  // What the legacy path keeps about the call; a mandate-path request has none of it.
  const call = input.source === 'evaluate' ? checkedCall(details, input) : null;
  const approval: Approval = {
    id,
    orgId,
    status: 'pending',
    source: input.source,
    intentLabel: optionalText(details, 'intent_label', input.intentLabel, LIMITS.label),
    intentCardId: optionalText(details, 'intent_card_id', input.intentCardId, LIMITS.label),
    toolName: optionalText(details, 'tool_name', input.toolName, LIMITS.tool),
    operation: optionalText(details, 'operation', input.operation, LIMITS.tool),
    summary: requiredText(details, 'summary', input.summary, LIMITS.summary),
    requestedByKeyId,
    userId: optionalText(details, 'user_id', input.userId, LIMITS.user),
    fingerprint: requiredText(details, 'fingerprint', input.fingerprint, LIMITS.fingerprint),
    createdAt: now,
    expiresAt: now,
    decidedAt: null,
    decidedByKeyId: null,
    reason: null,
    consumedAt: null,
    reasonCode: call ? call.reasonCode : null,
    candidates: call ? call.candidates : [],
    toolCall: call ? call.toolCall : null,
    conversationContext: call ? call.conversationContext : null,
  };
  const ttl = input.ttlSeconds ?? APPROVAL_TTL_SECONDS.default;
  if (!Number.isInteger(ttl) || ttl < APPROVAL_TTL_SECONDS.min || ttl > APPROVAL_TTL_SECONDS.max) {
    details.push({ path: 'ttl_seconds', message: `ttl_seconds must be an integer from ${APPROVAL_TTL_SECONDS.min} to ${APPROVAL_TTL_SECONDS.max}` });
  }
  const [first] = details;
  if (first) throw invalidRequest(first.message, details);
  return { ...approval, expiresAt: new Date(now.getTime() + ttl * 1000) };
}

/** True once a still-pending request has reached its deadline. */
export const isOverdue = (a: Approval, now: Date): boolean => a.status === 'pending' && now.getTime() >= a.expiresAt.getTime();

/** The status a reader sees: a pending request past its deadline is expired, stored or not. */
export const statusAt = (a: Approval, now: Date): ApprovalStatus => (isOverdue(a, now) ? 'expired' : a.status);

/** The request as a reader sees it at `now`. */
export const asOf = (a: Approval, now: Date): Approval => (isOverdue(a, now) ? { ...a, status: 'expired' } : a);

/**
 * Whether `deciderKeyId` may decide this request at `now` (403 self_approval, then 409
 * invalid_transition); throws when not. Checked before anything is taught from it.
 */
export function assertDecidable(a: Approval, deciderKeyId: string, now: Date): void {
  // Who may decide comes first: the requester may never decide its own request, whatever its state.
  if (a.requestedByKeyId === deciderKeyId) {
    throw forbidden('self_approval', 'the API key whose call caused this approval request cannot decide it');
  }
  const status = statusAt(a, now);
  if (status !== 'pending') throw conflict('invalid_transition', `the approval request is ${status}; only a pending request can be decided`);
}

function checkedReason(reason: unknown): string | null {
  if (reason === undefined || reason === null) return null;
  if (typeof reason !== 'string' || reason.length > LIMITS.reason) {
    const message = `reason must be a string of at most ${LIMITS.reason} characters`;
    throw invalidRequest(message, [{ path: 'reason', message }]);
  }
  return reason;
}

function decide(a: Approval, deciderKeyId: string, now: Date, to: 'approved' | 'denied', reason: string | null): Approval {
  assertDecidable(a, deciderKeyId, now);
  return { ...a, status: to, decidedAt: now, decidedByKeyId: deciderKeyId, reason };
}

/** An operator's correction of the match: the intention the call really is. */
export interface MatchCorrection {
  intentLabel: string;
  /** The original candidate's intention id, for `candidates` when it is not listed there yet. */
  candidateIntentionId: string;
}

/**
 * pending → approved, by a key other than the requester's (403 self_approval; 409
 * invalid_transition), with an optional reason. With a correction the request's `intentLabel`
 * becomes the corrected one (what the retried call is granted for) and the original candidate
 * stays in `candidates` (an approval_required match is listed with confidence 1: the classifier
 * took it as the match).
 */
export function approve(a: Approval, deciderKeyId: string, now: Date, options: { reason?: string | null; correction?: MatchCorrection | null } = {}): Approval {
  const decided = decide(a, deciderKeyId, now, 'approved', checkedReason(options.reason));
  const correction = options.correction;
  if (!correction || correction.intentLabel === a.intentLabel) return decided;
  const original = a.intentLabel;
  const listed = original === null || a.candidates.some((c) => c.intentLabel === original);
  const candidates = listed ? a.candidates : [{ intentLabel: original, intentionId: correction.candidateIntentionId, confidence: 1 }, ...a.candidates];
  return { ...decided, intentLabel: correction.intentLabel, candidates };
}

/** pending → denied, with an optional reason (same rules as approve). */
export function deny(a: Approval, deciderKeyId: string, now: Date, reason?: string | null): Approval {
  return decide(a, deciderKeyId, now, 'denied', checkedReason(reason));
}

/** pending past its deadline → expired (what the sweeper stores); null when nothing to do. */
export function expire(a: Approval, now: Date): Approval | null {
  return isOverdue(a, now) ? { ...a, status: 'expired' } : null;
}

/** An approval lets its call through once: approved, not yet used and not past its deadline. */
export const isConsumable = (a: Approval, now: Date): boolean => a.status === 'approved' && a.consumedAt === null && now.getTime() < a.expiresAt.getTime();

export function consume(a: Approval, now: Date): Approval {
  if (!isConsumable(a, now)) throw conflict('invalid_transition', 'only an approved, unused and unexpired approval can be used');
  return { ...a, consumedAt: now };
}
