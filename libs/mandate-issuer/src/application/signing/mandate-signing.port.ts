import type { MandateClaims } from '../../domain/mandate';

export const MANDATE_SIGNING = Symbol('MANDATE_SIGNING');

/** A public key as the JWKS publishes it (spec: kty, kid, alg, use, n, e). */
export interface PublicRsaJwk {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
}

/** An opened private key, usable by `sign` (opaque to the application). */
export interface OpenedSigningKey {
  readonly kid: string;
}

/**
 * The crypto edge of the key ring: generating RSA keys, sealing and opening them with the KEK,
 * and signing claims. Any failure here is a key-store problem (500 `signing_failed`).
 */
export interface MandateSigning {
  readonly kekId: string;
  generate(): Promise<{ kid: string; publicJwk: PublicRsaJwk; privateKeySealed: string }>;
  open(kid: string, privateKeySealed: string): OpenedSigningKey;
  sign(claims: MandateClaims, key: OpenedSigningKey): Promise<string>;
  /** Seals / opens other secrets at rest (broker revocation handles), bound to `purpose`. */
  seal(plain: string, purpose: string): string;
  unseal(sealed: string, purpose: string): string;
}
