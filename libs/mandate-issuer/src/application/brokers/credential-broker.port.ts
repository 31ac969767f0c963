import { BROKER_KINDS, type BrokerKind } from '@igw/contracts';

/**
 * Credential brokers (DESIGN 6.8 "Brokers"): on dispense, the fresh mandate is handed to a
 * broker that trusts the gateway's JWKS, and the broker's short-lived credential is returned to
 * the caller; on revoke, that credential is revoked at the broker when the broker allows it.
 *
 * The use case depends on CREDENTIAL_BROKERS (one registry for every configured kind); each
 * adapter implements CredentialBroker for one kind.
 */
export const CREDENTIAL_BROKERS = Symbol('CREDENTIAL_BROKERS');

export { BROKER_KINDS, type BrokerKind };

export function isBrokerKind(value: unknown): value is BrokerKind {
  return typeof value === 'string' && (BROKER_KINDS as readonly string[]).includes(value);
}

/** `broker_dispense.result` for `vault` (spec v0.6.0): a Vault token and its TTL in seconds. */
export interface VaultMintedResult {
  kind: 'minted';
  vault_token: string;
  lease_duration: number;
}

/** `broker_dispense.result` for `conjur`: a base64 Conjur access token and when it expires (ISO 8601). */
export interface ConjurMintedResult {
  kind: 'minted';
  conjur_token: string;
  expires_at: string;
}

export interface BrokerResultByKind {
  vault: VaultMintedResult;
  conjur: ConjurMintedResult;
}
export type BrokerResult = BrokerResultByKind[BrokerKind];

/**
 * What may be stored in the mandate's `broker` column and shown by inspect: no secret.
 * `accessor` is Vault's token accessor: it cannot authenticate, only (with a privileged token)
 * look up or revoke, so an operator can `vault token revoke -accessor` by hand.
 */
export interface VaultBrokerRecord {
  kind: 'vault';
  vault_role: string | null;
  namespace: string | null;
  accessor: string | null;
  token_type: 'service' | 'batch';
  lease_duration: number;
  expires_at: string;
}
export interface ConjurBrokerRecord {
  kind: 'conjur';
  account: string;
  service_id: string;
  host_id: string | null;
  expires_at: string;
}
export interface BrokerRecordByKind {
  vault: VaultBrokerRecord;
  conjur: ConjurBrokerRecord;
}
export type BrokerRecord = BrokerRecordByKind[BrokerKind];

/** Per-request broker options from `broker_dispense` (besides `kind`). */
export interface BrokerMintOptions {
  /** Vault JWT auth role. Omitted: Vault uses the mount's `default_role` (or answers 400). */
  vault_role?: string;
}

export interface BrokerMintRequest {
  /** The signed mandate (compact JWS). A secret: never logged, never in an error. */
  mandate: string;
  /** The mandate's `exp`. */
  expiresAt: Date;
  options: BrokerMintOptions;
}

export interface MintedCredential<K extends BrokerKind = BrokerKind> {
  kind: K;
  /** Returned once to the caller as `broker_dispense.result`. Holds the broker's token: never stored in clear, never logged. */
  result: BrokerResultByKind[K];
  /**
   * Opaque and SECRET (for Vault it contains the Vault token): store it encrypted
   * (`broker_revocation_enc`), never log it, and pass it back to `revoke`. `null` when the
   * credential cannot be revoked at the broker (Conjur access tokens, Vault batch tokens): it
   * then simply expires at `expiresAt`.
   */
  revocationHandle: string | null;
  /** Non-secret description for the mandate's `broker` column / inspect. */
  record: BrokerRecordByKind[K];
  /** When the broker credential stops working on its own. */
  expiresAt: Date;
  /**
   * The broker credential stays valid after the mandate expires (Vault's token TTL comes from
   * the role, not from the JWT's `exp`). The use case may revoke it when the mandate expires;
   * operators should set the role's `token_ttl`/`token_explicit_max_ttl` ≤ the card's max TTL.
   */
  outlivesMandate: boolean;
}

/**
 * `broker_revocation.result` of revoke (DESIGN 6.8 `{kind, result}`):
 * - `revoked`: the broker confirmed the revocation.
 * - `already_invalid`: the broker no longer knows the credential (expired or revoked before).
 * - `not_revocable`: nothing to revoke at the broker (no handle: a Conjur access token or a
 *   Vault batch token); it expires on its own.
 */
export type BrokerRevocationResult = 'revoked' | 'already_invalid' | 'not_revocable';

export interface BrokerRevocation {
  kind: BrokerKind;
  result: BrokerRevocationResult;
}

/** One broker kind, implemented by an adapter. */
export interface CredentialBroker<K extends BrokerKind = BrokerKind> {
  readonly kind: K;
  /** Throws BrokerError (`rejected`, `unavailable`, `timeout`). */
  mint(request: BrokerMintRequest): Promise<MintedCredential<K>>;
  /** Idempotent. Throws BrokerError (`unavailable`, `timeout`, `rejected`, or `misconfigured` for a handle it cannot read). */
  revoke(revocationHandle: string | null): Promise<BrokerRevocation>;
  /** Releases connection pools. */
  close?(): Promise<void>;
}

/** The registry the use case injects with CREDENTIAL_BROKERS. */
export interface CredentialBrokers {
  /** Kinds configured on this gateway. */
  configuredKinds(): BrokerKind[];
  isConfigured(kind: string): kind is BrokerKind;
  /**
   * Hands the mandate to broker `kind`. Throws BrokerError: `misconfigured` when the kind is not
   * configured (check `isConfigured` first and answer 400), else `rejected`, `unavailable`,
   * `timeout` (→ 502 `broker_failed`).
   */
  mint<K extends BrokerKind>(kind: K, request: BrokerMintRequest): Promise<MintedCredential<K>>;
  /** Revokes what `mint` returned, from its stored `revocationHandle`. Throws BrokerError. */
  revoke(kind: BrokerKind, revocationHandle: string | null): Promise<BrokerRevocation>;
}
