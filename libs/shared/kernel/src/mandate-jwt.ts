/**
 * The mandate JWT (DESIGN 6.8): what mandate-issuer signs and every verifier (the decision proxy,
 * brokers) checks. One definition, so issuer and verifier cannot drift apart.
 */
export const MANDATE_JWT = { issuer: 'intent-gateway', alg: 'RS256', typ: 'mandate+jwt' } as const;

/** The claims of a mandate as issued, times in whole seconds; `jti` is the `cred_id`. */
export interface MandateClaims {
  iss: string;
  /** The actor. */
  sub: string;
  aud: string;
  org: string;
  intent_id: string;
  /**
   * The prompt the mandate is bound to. Absent (never null) when the dispense named none: such a
   * mandate is bound to no prompt and the decision engine skips its prompt check (DESIGN 6.8, 6.9).
   */
  prompt_id?: string;
  scope: { operations: string[]; resources: string[]; forbidden_operations: string[] };
  /** The dispense request's context. */
  ctx: Record<string, unknown>;
  acr?: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
}
