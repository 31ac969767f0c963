import { createHash, createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { SignJWT, type JWTPayload } from 'jose';
import { MANDATE_JWT } from '@igw/contracts';
import type { PublicRsaJwk } from '../../application/signing/mandate-signing.port';

/** JOSE `typ` of a mandate; grants are `grant+jwt`, so neither is ever taken for the other. */
export const MANDATE_TYPE = MANDATE_JWT.typ;
export const MANDATE_ALG = MANDATE_JWT.alg;
/** DESIGN 6.8: RSA ≥ 2048. 2048 keeps signing at ~1.4k/s per core on our machines. */
export const RSA_BITS = 2048;

export interface GeneratedSigningKey {
  kid: string;
  publicJwk: PublicRsaJwk;
  /** PKCS#8 DER: what gets sealed at rest. */
  privatePkcs8: Buffer;
}

const generate = promisify(generateKeyPair);

/** A new RSA key; `kid` is its RFC 7638 thumbprint, so a kid always names exactly one key. */
export async function generateRsaSigningKey(bits = RSA_BITS): Promise<GeneratedSigningKey> {
  // Off the event loop: RSA generation takes tens to hundreds of ms.
  const { publicKey, privateKey } = await generate('rsa', { modulusLength: bits, publicExponent: 0x10001 });
  const { n, e } = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const kid = createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
  return {
    kid,
    publicJwk: { kty: 'RSA', kid, alg: MANDATE_ALG, use: 'sig', n, e },
    privatePkcs8: privateKey.export({ format: 'der', type: 'pkcs8' }),
  };
}

export function privateKeyFromPkcs8(der: Buffer): KeyObject {
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
    throw new Error('a mandate signing key must be RSA with at least 2048 bits');
  return key;
}

/** The compact JWS of a mandate: header `alg RS256, typ mandate+jwt, kid`. */
export function signMandate(claims: JWTPayload, key: { kid: string; privateKey: KeyObject }): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: MANDATE_ALG, typ: MANDATE_TYPE, kid: key.kid }).sign(key.privateKey);
}
