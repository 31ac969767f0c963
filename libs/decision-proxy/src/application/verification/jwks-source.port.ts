import type { JWK } from 'jose';

export const JWKS_SOURCE = Symbol('JWKS_SOURCE');

/** A JSON Web Key Set as the mandate issuer publishes it (`GET /v1/mandate/jwks`). */
export interface JwkSet {
  keys: JWK[];
}

/**
 * The mandate issuer's public keys. Embedded mode passes an in-process source (the issuer's key
 * ring), distributed mode an HTTP one. `fetch` throws DependencyUnavailableError when the keys
 * cannot be had; the verifier then keeps the keys it has (or fails closed with none).
 * Never a URL named by a token: the source is fixed by configuration.
 */
export interface JwksSource {
  fetch(): Promise<JwkSet>;
}
