import type { GrantRequest, GrantVerification } from '../../domain/grants/grant';

export type { Grant, GrantInvalidReason, GrantRequest, GrantVerification } from '../../domain/grants/grant';

export const GRANT_SIGNER = Symbol('GRANT_SIGNER');
export const GRANT_VERIFIER = Symbol('GRANT_VERIFIER');

/** Signs grants with the evaluator's own key (a key-store edge, hence a port). */
export interface GrantSigner {
  /** The compact JWS of a grant for `request`, with `jti` (the caller records it with the intent event). */
  sign(request: GrantRequest, jti: string): Promise<string>;
}

/**
 * Verifies a grant for the caller's org. Never throws for a bad token: every way a token can be
 * wrong is a `{valid: false, reason}` answer (200 on `POST /v1/grants/verify`).
 */
export interface GrantVerifier {
  verify(token: string, orgId: string): Promise<GrantVerification>;
}
