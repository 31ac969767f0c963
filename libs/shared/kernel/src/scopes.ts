/** API key scopes (DESIGN 6.1): each one includes everything the ones before it may do. */
export const SCOPES = ['read_only', 'policy_write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function scopeSatisfies(held: Scope, required: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(required);
}

/** Who is calling: resolved from the API key by the gateway, trusted by every service. */
export interface Caller {
  orgId: string;
  keyId: string;
  scope: Scope;
}
