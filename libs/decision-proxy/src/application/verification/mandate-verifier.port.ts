import { MANDATE_JWT, type MandateClaims } from '@igw/contracts';
import { AppError, forbidden } from '@igw/kernel';

export const MANDATE_VERIFIER = Symbol('MANDATE_VERIFIER');

/** The issuer every mandate names (`iss`). */
export const MANDATE_ISSUER = MANDATE_JWT.issuer;

/**
 * Why a mandate was refused. All of them are one 401 `mandate_invalid` to the client (DESIGN
 * 6.2); the reason is for logs and tests. `header`: the token names its own key (`jku`, `x5u`,
 * `jwk`, `x5c`) or carries `crit`, refused outright.
 */
export const MANDATE_INVALID_REASONS = [
  'missing',
  'malformed',
  'header',
  'alg',
  'typ',
  'kid',
  'signature',
  'expired',
  'not_yet_valid',
  'audience',
  'claims',
  'revoked',
] as const;
export type MandateInvalidReason = (typeof MANDATE_INVALID_REASONS)[number];

/** The verified claims of a mandate (the issuer's contract; `iat`/`nbf` may be absent in a token we accept). */
export type VerifiedMandateClaims = Omit<MandateClaims, 'iat' | 'nbf'> & {
  iat?: number;
  nbf?: number;
  /** The key that signed it (from the protected header). */
  kid: string;
};

export type MandateVerification =
  | { ok: true; claims: VerifiedMandateClaims }
  | { ok: false; reason: MandateInvalidReason }
  /** Only when `orgId` was given: the mandate is valid but belongs to another org (403). */
  | { ok: false; reason: 'org_mismatch'; claims: VerifiedMandateClaims };

export interface MandateVerifyOptions {
  /** The audience this call is for; `aud` must equal it. */
  audience: string;
  /**
   * The caller's org (the bearer key's). When given, a valid mandate of another org answers
   * `org_mismatch` — checked after every 401 check (DESIGN 6.9 order). When left out, the caller
   * compares `claims.org` itself.
   */
  orgId?: string;
}

/**
 * Verifies a mandate (`X-Service-Mandate`). Resolves to a verdict for anything the token is to
 * blame for; rejects with DependencyUnavailableError (503, fail closed) only when no issuer keys
 * are known and the JWKS cannot be fetched.
 */
export interface MandateVerifier {
  verify(token: string, options: MandateVerifyOptions): Promise<MandateVerification>;
}

const MESSAGES: Record<MandateInvalidReason, string> = {
  missing: 'the X-Service-Mandate header is missing: send the mandate (the `credential` that POST /v1/mandate/dispense returned) in it',
  malformed: 'the mandate is not a well-formed JWS',
  header: 'the mandate header names its own key (jku, x5u, jwk, x5c) or carries crit; refused',
  alg: 'the mandate must be signed with RS256',
  typ: 'the mandate header typ must be "mandate+jwt"',
  kid: "the mandate's kid names no published issuer key",
  signature: 'the mandate signature does not verify',
  expired: 'the mandate has expired',
  not_yet_valid: 'the mandate is not valid yet',
  audience: 'the mandate is not for this audience',
  claims: 'the mandate claims are missing or malformed',
  revoked: 'the mandate has been revoked',
};

/** 401 `mandate_invalid`; the reason is carried in the message and in `reason` (not sent: extra fields are body fields, so it stays on the error object). */
export function mandateInvalid(reason: MandateInvalidReason): AppError {
  const err = new AppError('unauthenticated', 'mandate_invalid', MESSAGES[reason]);
  (err as AppError & { reason?: MandateInvalidReason }).reason = reason;
  return err;
}

/** 403 `mandate_org_mismatch` (DESIGN 6.9 step 3). */
export const mandateOrgMismatch = () => forbidden('mandate_org_mismatch', "the mandate's org is not the org of the API key");

/** The claims of a verification, or the AppError it stands for (401 / 403). */
export function requireMandate(result: MandateVerification): VerifiedMandateClaims {
  if (result.ok) return result.claims;
  if (result.reason === 'org_mismatch') throw mandateOrgMismatch();
  throw mandateInvalid(result.reason);
}
