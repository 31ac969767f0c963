import type { SigningKeyMeta } from '../../domain/signing-key-schedule';
import type { PublicRsaJwk } from '../signing/mandate-signing.port';

export const SIGNING_KEY_REPOSITORY = Symbol('SIGNING_KEY_REPOSITORY');

export interface StoredSigningKey extends SigningKeyMeta {
  publicJwk: PublicRsaJwk;
  /** KeyEncryption-sealed PKCS#8 of the private key (aad = kid). */
  privateKeySealed: string;
  /** Which key-encryption key sealed it. */
  kekId: string;
}

/** The signing keys of the whole deployment (not per org: the JWKS is one public document). */
export interface SigningKeyRepository {
  list(): Promise<StoredSigningKey[]>;
  /**
   * Applies a rotation plan atomically under a lock shared by every replica: `decide` sees the
   * keys as stored and returns what to insert, retire and delete (or null for nothing). Two
   * replicas rotating at once therefore never both add a key.
   */
  rotate(
    decide: (keys: StoredSigningKey[]) => Promise<{ insert: StoredSigningKey[]; retire: { kid: string; retiredAt: Date }[]; delete: string[] } | null>,
  ): Promise<StoredSigningKey[]>;
  /** Raises `last_expiry` of a key to at least `exp` (never lowers it). */
  recordExpiry(kid: string, exp: Date): Promise<void>;
}
