import {
  APPROVAL_SOURCES,
  APPROVAL_STATUSES,
  conflict,
  forbidden,
  invalidRequest,
  type ApprovalSource,
  type ApprovalStatus,
  type ErrorDetail,
} from '@igw/kernel';

/** Approval requests (DESIGN 6.10): a call that needs a human's yes before it may proceed. */
export { APPROVAL_SOURCES, APPROVAL_STATUSES, type ApprovalSource, type ApprovalStatus };

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

function decide(a: Approval, deciderKeyId: string, now: Date, to: 'approved' | 'denied', reason: string | null): Approval {
  // Who may decide comes first: the requester may never decide its own request, whatever its state.
  if (a.requestedByKeyId === deciderKeyId) {
    throw forbidden('self_approval', 'the API key whose call caused this approval request cannot decide it');
  }
  const status = statusAt(a, now);
  if (status !== 'pending') throw conflict('invalid_transition', `the approval request is ${status}; only a pending request can be decided`);
  return { ...a, status: to, decidedAt: now, decidedByKeyId: deciderKeyId, reason };
}

/** pending → approved, by a key other than the requester's (403 self_approval; 409 invalid_transition). */
export function approve(a: Approval, deciderKeyId: string, now: Date): Approval {
  return decide(a, deciderKeyId, now, 'approved', null);
}

/** pending → denied, with an optional reason (same rules as approve). */
export function deny(a: Approval, deciderKeyId: string, now: Date, reason?: string | null): Approval {
  if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > LIMITS.reason)) {
    throw invalidRequest(`reason must be a string of at most ${LIMITS.reason} characters`, [
      { path: 'reason', message: `reason must be a string of at most ${LIMITS.reason} characters` },
    ]);
  }
  return decide(a, deciderKeyId, now, 'denied', reason ?? null);
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
