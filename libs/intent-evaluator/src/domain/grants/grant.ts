import { GRANT_INVALID_REASONS, type GrantInvalidReason } from '@igw/kernel';

/**
 * Grants (DESIGN 6.5): the short-lived proof that an evaluation allowed a call, with the data
 * elements it approved. This file holds the claim rules; signing is an adapter's job.
 */

export const GRANT_ISSUER = 'intent-gateway';
/** JOSE `typ` of a grant. Mandates are `mandate+jwt`, so neither is ever taken for the other. */
export const GRANT_TYPE = 'grant+jwt';
/** `sub` of a grant issued without a `user_id`. */
export const ANONYMOUS_SUBJECT = 'anonymous';

export { GRANT_INVALID_REASONS, type GrantInvalidReason };

/**
 * A grant's `call` claim: the SHA-256, lowercase hex, of the canonical tool call it was issued for
 * (canonicalToolCall). Hex like every other hash the gateway shows (approval fingerprints,
 * `arguments_sha256`), so a resource server can compare it with `sha256sum` output.
 */
export const isCallHash = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** What the evaluator asks to be signed. */
export interface GrantRequest {
  orgId: string;
  /** null: the evaluation named no user; `sub` is then `anonymous`. */
  userId: string | null;
  intentLabel: string;
  /** `"<data_source_id>:<path>"`, as in the evaluation response. */
  dataElements: string[];
  intentEventId: string;
  /** The `call` claim: the hash of the call it is issued for (see isCallHash). */
  call: string;
  /** The intention's `ttl_minutes`: `exp` = `iat` + ttl. */
  ttlMinutes: number;
  /** The evaluation's own time, so the grant and the intent event agree. */
  issuedAt: Date;
}

/** The JWT claims of a grant, as they travel. */
export interface GrantClaims {
  iss: string;
  sub: string;
  org: string;
  intent: string;
  data_elements: string[];
  evt: string;
  /** The call it authorises (see isCallHash). */
  call: string;
  iat: number;
  exp: number;
  jti: string;
}

/** A verified grant, as `POST /v1/grants/verify` reports it. */
export interface Grant {
  dataElements: string[];
  intentLabel: string;
  intentEventId: string;
  /** null for `sub: anonymous`, as in the intent event of an evaluation without `user_id`. */
  userId: string | null;
  expiresAt: Date;
  /** The hash of the call it was issued for. */
  call: string;
}

export type GrantVerification = { valid: true; grant: Grant } | { valid: false; reason: GrantInvalidReason };

export const invalidGrant = (reason: GrantInvalidReason): GrantVerification => ({ valid: false, reason });

/** The claims to sign; `jti` comes from the caller (ids need randomness, the domain has none). */
export function grantClaims(request: GrantRequest, jti: string): GrantClaims {
  const iatMs = request.issuedAt.getTime();
  if (!Number.isFinite(iatMs)) throw new RangeError('grant issuedAt is not a valid date');
  if (!Number.isInteger(request.ttlMinutes) || request.ttlMinutes < 1) throw new RangeError('grant ttlMinutes must be a positive integer');
  if (!isCallHash(request.call)) throw new RangeError('grant call must be a lowercase hex SHA-256');
  const iat = Math.floor(iatMs / 1000);
  return {
    iss: GRANT_ISSUER,
    sub: request.userId ?? ANONYMOUS_SUBJECT,
    org: request.orgId,
    intent: request.intentLabel,
    data_elements: [...request.dataElements],
    evt: request.intentEventId,
    call: request.call,
    iat,
    exp: iat + request.ttlMinutes * 60,
    jti,
  };
}

/**
 * Whether a JOSE `typ` names a grant. RFC 7515 makes `typ` case-insensitive with an optional
 * `application/` prefix; the header is signed, so accepting those spellings widens nothing.
 */
export function isGrantType(typ: unknown): boolean {
  if (typeof typ !== 'string') return false;
  const t = typ.toLowerCase();
  return (t.startsWith('application/') ? t.slice('application/'.length) : t) === GRANT_TYPE;
}

const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isSeconds = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks the claims of a grant whose signature has already been verified: every claim present
 * and well typed (else `malformed`; a grant without `call` predates the binding and is refused),
 * then the org (before expiry, so another org learns nothing about the token), then expiry
 * (`now >= exp`).
 */
export function checkGrantClaims(payload: unknown, orgId: string, now: Date): GrantVerification {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return invalidGrant('malformed');
  const c = payload as Partial<Record<keyof GrantClaims, unknown>>;
  const wellFormed =
    c.iss === GRANT_ISSUER &&
    isString(c.sub) &&
    isString(c.org) &&
    isString(c.intent) &&
    Array.isArray(c.data_elements) &&
    c.data_elements.every((d) => typeof d === 'string') &&
    isString(c.evt) &&
    isCallHash(c.call) &&
    isSeconds(c.iat) &&
    isSeconds(c.exp) &&
    c.exp > c.iat &&
    isString(c.jti);
  if (!wellFormed) return invalidGrant('malformed');
  const claims = c as GrantClaims;
  if (claims.org !== orgId) return invalidGrant('other_org');
  if (now.getTime() >= claims.exp * 1000) return invalidGrant('expired');
  return {
    valid: true,
    grant: {
      dataElements: [...claims.data_elements],
      intentLabel: claims.intent,
      intentEventId: claims.evt,
      userId: claims.sub === ANONYMOUS_SUBJECT ? null : claims.sub,
      expiresAt: new Date(claims.exp * 1000),
      call: claims.call,
    },
  };
}

/**
 * The binding of DESIGN 6.5: a grant authorises the call it was issued for. `call` is the hash of
 * the call it is presented for; a valid grant issued for another call is `other_call`. Checked
 * after everything else, so a forged, foreign or expired grant keeps its own reason.
 */
export function checkGrantCall(verification: GrantVerification, call: string): GrantVerification {
  return verification.valid && verification.grant.call !== call ? invalidGrant('other_call') : verification;
}
