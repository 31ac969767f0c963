import {
  AppError,
  conflict,
  forbidden,
  invalidRequest,
  MANDATE_STATUSES,
  rateLimited,
  throwIfInvalid,
  type ErrorDetail,
  type MandateClaims,
  type MandateStatus,
} from '@igw/kernel';
import { checkRequestedScope, recheckScope, type MandateScope, type RequestedScope } from './mandate-scope';
import { dispenseWindow, effectiveTtlSeconds, MANDATE_REFRESH_COOLDOWN_SECONDS, refreshCooldownSeconds, refreshedExpiry, toEpochSeconds } from './mandate-ttl';

/**
 * Mandates (DESIGN 6.8): a signed credential binding an actor to an intent card and a scope.
 * This file holds the record, its transitions and its JWT claims; signing is an adapter's job.
 */

export { MANDATE_STATUSES, type MandateStatus };

/**
 * What the mandate records of its broker dispense (no secret), set by the use case after the
 * broker answered; the broker kinds and record shapes belong to the broker port.
 */
export interface MandateBroker {
  kind: string;
}

/** What the issuer needs of an intent card, as the card events carry it. */
export interface MandateCard {
  id: string;
  allowed_scope: MandateScope;
  audiences: string[];
  max_ttl_seconds: number;
}

export interface Mandate {
  /** Also the JWT `jti`; a refresh keeps it. */
  credId: string;
  orgId: string;
  /** The JWT `sub`. */
  actor: string;
  /** The intent card's id. */
  intentId: string;
  /** null: bound to no prompt (the JWT then has no `prompt_id` claim). */
  promptId: string | null;
  audience: string;
  scope: MandateScope;
  context: Record<string, unknown>;
  /** `context.acr` when it is a non-empty string, else null (then no `acr` claim). */
  acr: string | null;
  /** First issue, whole seconds; the 24 h lifetime cap counts from here. */
  issuedAt: Date;
  /** `exp` of the latest credential, whole seconds. */
  expiresAt: Date;
  revokedAt: Date | null;
  revokeReason: string | null;
  refreshCount: number;
  /** Exact time of the last refresh (the cooldown counts from it); null if never refreshed. */
  lastRefreshedAt: Date | null;
  /** The key that signed the latest credential. */
  kid: string;
  broker: MandateBroker | null;
  classificationEvidence: Record<string, unknown> | null;
}

/**
 * A dispense as the domain takes it: the HTTP body camel-cased, minus `intent_id` (the card is
 * given) and `broker_dispense` (the use case calls the broker after signing and sets `broker`).
 */
export interface DispenseRequest {
  actor: string;
  /** Optional (DESIGN 6.8): left out or null, the mandate is bound to no prompt. */
  promptId?: string | null;
  /** May be left out when the card allows exactly one audience. */
  audience?: string | null;
  requestedScope: RequestedScope;
  ttlSeconds?: number | null;
  context?: Record<string, unknown> | null;
  classificationEvidence?: Record<string, unknown> | null;
}

/** What the caller supplies: ids, time and the current signing key (the domain has no randomness or clock). */
export interface IssueContext {
  credId: string;
  orgId: string;
  kid: string;
  now: Date;
}

/** The JWT claims of a mandate (DESIGN 6.8): the contract every verifier reads. */
export type { MandateClaims };

export const MANDATE_TEXT_LIMITS = { actor: 256, promptId: 256, audience: 256, reason: 1000 } as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function requiredText(details: ErrorDetail[], path: string, value: unknown, max: number): string {
  if (value === undefined || value === null) {
    details.push({ path, message: `${path} is required` });
    return '';
  }
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    details.push({ path, message: `${path} must be a non-empty string of at most ${max} characters` });
    return '';
  }
  return value;
}

function optionalText(details: ErrorDetail[], path: string, value: unknown, max: number): string | null {
  return value === undefined || value === null ? null : requiredText(details, path, value, max);
}

function optionalObject(details: ErrorDetail[], path: string, value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) {
    details.push({ path, message: `${path} must be an object` });
    return null;
  }
  return value;
}

const statusOf = (m: Pick<Mandate, 'revokedAt' | 'expiresAt'>, now: Date): MandateStatus =>
  m.revokedAt !== null ? 'revoked' : now.getTime() >= m.expiresAt.getTime() ? 'expired' : 'active';

/** The status a reader sees at `now`: revoked wins over expired; `exp` itself is already expired (as in JWT). */
export const mandateStatus = (m: Mandate, now: Date): MandateStatus => statusOf(m, now);

/**
 * A new mandate for `card`, or: 400 `invalid_request` (malformed request, ttl not a positive
 * integer, no audience while the card allows several), 403 `mandate_violation` with
 * `suggested_scope` and `details` (scope beyond the card, or an audience the card does not
 * list). The TTL is clamped (see mandate-ttl); `ttlSeconds` is the effective one.
 */
export function dispenseMandate(card: MandateCard, request: DispenseRequest, issue: IssueContext): { mandate: Mandate; ttlSeconds: number } {
  const details: ErrorDetail[] = [];
  const actor = requiredText(details, 'actor', request.actor, MANDATE_TEXT_LIMITS.actor);
  const promptId = optionalText(details, 'prompt_id', request.promptId, MANDATE_TEXT_LIMITS.promptId);
  let audience = '';
  if (request.audience === undefined || request.audience === null) {
    const [only] = card.audiences;
    if (card.audiences.length === 1 && only !== undefined) audience = only;
    else details.push({ path: 'audience', message: 'audience is required: the intent card allows several' });
  } else {
    audience = requiredText(details, 'audience', request.audience, MANDATE_TEXT_LIMITS.audience);
  }
  const context = optionalObject(details, 'context', request.context) ?? {};
  const classificationEvidence = optionalObject(details, 'classification_evidence', request.classificationEvidence);
  let ttlSeconds = 0;
  try {
    ttlSeconds = effectiveTtlSeconds(request.ttlSeconds, card.max_ttl_seconds);
  } catch (e) {
    // A bad ttl joins the other 400 details; a corrupt card (RangeError) fails the request.
    if (!(e instanceof AppError)) throw e;
    details.push({ path: 'ttl_seconds', message: e.message });
  }
  throwIfInvalid(details);

  // A malformed scope is a 400 thrown from here; a scope beyond the card is collected below.
  const check = checkRequestedScope(card.allowed_scope, request.requestedScope);
  const violations = check.ok ? [] : [...check.violations];
  if (!card.audiences.includes(audience)) {
    violations.unshift({ path: 'audience', message: `audience ${JSON.stringify(audience)} is not one of the intent card's audiences` });
  }
  const scope = check.ok ? check.scope : check.suggested_scope;
  if (violations.length > 0) {
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    throw forbidden('mandate_violation', `requested mandate exceeds the intent card: ${violations[0]?.message ?? ''}${more}`, {
      suggested_scope: scope,
      details: violations,
    });
  }

  const { issuedAt, expiresAt } = dispenseWindow(issue.now, ttlSeconds);
  const acr = typeof context['acr'] === 'string' && context['acr'] !== '' ? context['acr'] : null;
  return {
    mandate: {
      credId: issue.credId,
      orgId: issue.orgId,
      actor,
      intentId: card.id,
      promptId,
      audience,
      scope,
      context,
      acr,
      issuedAt,
      expiresAt,
      revokedAt: null,
      revokeReason: null,
      refreshCount: 0,
      lastRefreshedAt: null,
      kid: issue.kid,
      broker: null,
      classificationEvidence,
    },
    ttlSeconds,
  };
}

/**
 * A new credential for the same `cred_id` (DESIGN 6.8), signed by `kid` (the current signer).
 * Checks, in order: 400 for a bad ttl; 409 `mandate_revoked`, 409 `mandate_expired`; 403
 * `scope_outside_intent` when the card (as it is now) no longer allows the mandate's scope or
 * audience; 429 `cooldown` (`retry_after` seconds) within 10 s of the previous refresh. The new
 * expiry is now + ttl (clamped to the card's current maximum), capped at 24 h after the first
 * issue and never earlier than the current one; the card's current `forbidden_operations` are
 * added to the scope. `ttlSeconds` is what the new credential has left (`exp` − now).
 */
export function refreshMandate(
  m: Mandate,
  card: MandateCard,
  input: { now: Date; ttlSeconds?: number | null; kid: string },
): { mandate: Mandate; ttlSeconds: number } {
  if (card.id !== m.intentId) throw new RangeError(`card ${card.id} is not the card of mandate ${m.credId}`);
  const ttl = effectiveTtlSeconds(input.ttlSeconds, card.max_ttl_seconds);
  const status = statusOf(m, input.now);
  if (status === 'revoked') throw conflict('mandate_revoked', 'the mandate is revoked and cannot be refreshed');
  if (status === 'expired') throw conflict('mandate_expired', 'the mandate has expired and cannot be refreshed; dispense a new one');
  if (!card.audiences.includes(m.audience)) {
    throw forbidden('scope_outside_intent', `the mandate's audience ${JSON.stringify(m.audience)} is no longer one of the intent card's audiences`);
  }
  const scope = recheckScope(card.allowed_scope, m.scope);
  const wait = refreshCooldownSeconds(m.lastRefreshedAt, input.now);
  if (wait > 0)
    throw rateLimited('cooldown', `a mandate may be refreshed at most once every ${MANDATE_REFRESH_COOLDOWN_SECONDS} seconds; retry in ${wait} s`, wait);
  const expiresAt = refreshedExpiry({ issuedAt: m.issuedAt, expiresAt: m.expiresAt, now: input.now, ttlSeconds: ttl });
  return {
    mandate: { ...m, scope, expiresAt, refreshCount: m.refreshCount + 1, lastRefreshedAt: input.now, kid: input.kid },
    ttlSeconds: toEpochSeconds(expiresAt) - toEpochSeconds(input.now),
  };
}

/**
 * Revoked at `now` with an optional reason (400 beyond 1000 characters). Idempotent: revoking a
 * revoked mandate changes nothing (`changed: false`: no second event, no second broker call). An
 * expired mandate can be revoked too (its broker token may outlive it).
 */
export function revokeMandate(m: Mandate, now: Date, reason?: string | null): { mandate: Mandate; changed: boolean } {
  if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > MANDATE_TEXT_LIMITS.reason)) {
    const message = `reason must be a string of at most ${MANDATE_TEXT_LIMITS.reason} characters`;
    throw invalidRequest(message, [{ path: 'reason', message }]);
  }
  if (m.revokedAt !== null) return { mandate: m, changed: false };
  return { mandate: { ...m, revokedAt: now, revokeReason: reason ?? null }, changed: true };
}

/**
 * The claims of the mandate's latest credential: `iat` = `nbf` = its signing time (the last
 * refresh, else the first issue), `exp` = `expiresAt`, `jti` = `cred_id`; `acr` and `prompt_id`
 * only when known (a claim that does not apply is left out, never null).
 */
export function mandateClaims(m: Mandate, issuer: string): MandateClaims {
  if (issuer === '') throw new RangeError('mandate issuer must not be empty');
  const iat = toEpochSeconds(m.lastRefreshedAt ?? m.issuedAt);
  return {
    iss: issuer,
    sub: m.actor,
    aud: m.audience,
    org: m.orgId,
    intent_id: m.intentId,
    ...(m.promptId !== null ? { prompt_id: m.promptId } : {}),
    scope: { operations: [...m.scope.operations], resources: [...m.scope.resources], forbidden_operations: [...m.scope.forbidden_operations] },
    ctx: m.context,
    ...(m.acr !== null ? { acr: m.acr } : {}),
    iat,
    nbf: iat,
    exp: toEpochSeconds(m.expiresAt),
    jti: m.credId,
  };
}
