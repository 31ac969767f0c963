import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign as signBytes, type JsonWebKey } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, errors } from 'jose';
import { BoundedMap, isCanonicalCompactJws, newId, systemClock, type Clock } from '@igw/kernel';
import type { GrantSigner, GrantVerifier } from '../../application/grants/grant.port';
import { checkGrantClaims, grantClaims, GRANT_TYPE, invalidGrant, isGrantType, type GrantRequest, type GrantVerification } from '../../domain/grants/grant';

/**
 * Grants are signed with EdDSA over Ed25519 (RFC 8037). Why not ES256: Ed25519 signatures are
 * deterministic (no per-signature nonce whose bias leaks the key), the key is 32 bytes with no
 * curve parameters to validate, and signing is fast on the evaluate hot path. Being a different
 * key type from the RS256 mandate keys also rules out any mandate/grant algorithm confusion.
 * The allowlist is this one algorithm: `none`, HS*, RS* and everything else are refused.
 */
export const GRANT_ALG = 'EdDSA';

/** Longer tokens are refused unparsed: a grant with a few hundred data elements is far shorter. */
const MAX_TOKEN_LENGTH = 64 * 1024;

/**
 * Signature checks cost ~0.2 ms of CPU, and a grant is typically verified again and again until it
 * expires; so the claims of tokens whose signature verified are kept (bounded, oldest out).
 * Org and expiry are still checked on every call. Only our own signed tokens can enter, and
 * only short ones, so the cache holds a few MB at most.
 */
const VERIFIED_CACHE = { entries: 10_000, maxTokenLength: 4096 } as const;

/** The grant key: a KeyObject, a private JWK, or a PKCS#8 PEM (distributed mode, from config). */
export type GrantKeyInput = KeyObject | JsonWebKey | string;

/** A new Ed25519 private key as a JWK (embedded mode stores it under DATA_DIR, owner-only). */
export function generateGrantKey(): JsonWebKey {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
}

function toPrivateKey(input: GrantKeyInput): KeyObject {
  let key: KeyObject;
  try {
    if (typeof input === 'string') key = createPrivateKey(input);
    else if (input instanceof KeyObject) key = input;
    else key = createPrivateKey({ key: input, format: 'jwk' });
  } catch {
    throw new Error('grant key: not a readable private key (expected an Ed25519 KeyObject, JWK or PKCS#8 PEM)');
  }
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') throw new Error('grant key: must be an Ed25519 private key');
  return key;
}

/** RFC 7638 thumbprint of the public key: a `kid` so a future key rotation can pick the key. */
function thumbprint(publicKey: KeyObject): string {
  const { crv, kty, x } = publicKey.export({ format: 'jwk' });
  return createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
}

/** Signs and verifies grants (DESIGN 6.5) with the evaluator's own Ed25519 key. */
export class JoseGrantService implements GrantSigner, GrantVerifier {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  readonly kid: string;
  private readonly encodedHeader: string;
  /** token → its claims, for tokens whose signature verified (insertion order = age). */
  private readonly verified: BoundedMap<string, unknown>;

  constructor(
    key: GrantKeyInput,
    private readonly clock: Clock = systemClock,
    private readonly cacheEntries: number = VERIFIED_CACHE.entries,
  ) {
    this.verified = new BoundedMap(Math.max(1, cacheEntries));
    this.privateKey = toPrivateKey(key);
    this.publicKey = createPublicKey(this.privateKey);
    this.kid = thumbprint(this.publicKey);
    this.encodedHeader = Buffer.from(JSON.stringify({ alg: GRANT_ALG, typ: GRANT_TYPE, kid: this.kid })).toString('base64url');
  }

  /**
   * Signs with node:crypto directly: an RFC 7515 compact JWS is `b64(header).b64(payload)` signed
   * as is, and Ed25519 has no parameters to get wrong. jose's WebCrypto path costs ~3× as much
   * CPU per grant on the evaluate hot path; verification (where the allowlist and header checks
   * matter) stays with jose, and the tests verify our tokens with jose.
   */
  async sign(request: GrantRequest, jti: string = newId('grt')): Promise<string> {
    const claims = grantClaims(request, jti);
    const input = `${this.encodedHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return `${input}.${signBytes(null, Buffer.from(input), this.privateKey).toString('base64url')}`;
  }

  async verify(token: string, orgId: string): Promise<GrantVerification> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || token.split('.').length !== 3) return invalidGrant('malformed');
    const cached = this.verified.get(token);
    if (cached !== undefined) return this.check(token, cached, orgId);
    // One spelling per token (DESIGN 6.12): lenient base64url decoding would take `sig==` or a stray
    // spare bit as the same grant. Cached tokens passed this when they were first verified.
    if (!isCanonicalCompactJws(token)) return invalidGrant('malformed');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return invalidGrant('malformed');
    }
    // Type first: a mandate (or any other JWT) is not a grant, whoever signed it.
    if (!isGrantType(header.typ)) return invalidGrant('wrong_type');
    // Only our algorithm and our key; `jwk`/`jku`/`x5u` headers are never consulted.
    if (header.alg !== GRANT_ALG || (header.kid !== undefined && header.kid !== this.kid)) return invalidGrant('bad_signature');

    let payload: Uint8Array;
    try {
      ({ payload } = await compactVerify(token, this.publicKey, { algorithms: [GRANT_ALG] }));
    } catch (e) {
      if (e instanceof errors.JWSSignatureVerificationFailed || e instanceof errors.JOSEAlgNotAllowed) return invalidGrant('bad_signature');
      if (e instanceof errors.JOSEError) return invalidGrant('malformed');
      throw e; // not the token's fault (e.g. the runtime's crypto): let it surface as a 500
    }
    let claims: unknown;
    try {
      claims = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
    } catch {
      return invalidGrant('malformed');
    }
    if (token.length <= VERIFIED_CACHE.maxTokenLength && this.cacheEntries > 0) {
      this.verified.set(token, claims);
    }
    return this.check(token, claims, orgId);
  }

  private check(token: string, claims: unknown, orgId: string): GrantVerification {
    const result = checkGrantClaims(claims, orgId, this.clock.now());
    if (!result.valid && result.reason === 'expired') this.verified.delete(token); // never valid again
    return result;
  }
}
