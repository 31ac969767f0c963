import { createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, errors, type JWK, type ProtectedHeaderParameters } from 'jose';
import { Logger } from '@nestjs/common';
import { MANDATE_JWT } from '@igw/contracts';
import { BoundedMap, DependencyUnavailableError, isCanonicalCompactJws, systemClock, type Clock } from '@igw/kernel';
import type { JwksSource } from '../../application/verification/jwks-source.port';
import {
  MANDATE_ISSUER,
  type MandateInvalidReason,
  type MandateVerification,
  type MandateVerifier,
  type MandateVerifyOptions,
  type VerifiedMandateClaims,
} from '../../application/verification/mandate-verifier.port';
import type { RevocationSet } from '../../application/verification/revocation-set';

export const MANDATE_ALG = MANDATE_JWT.alg;
export const MANDATE_TYP = MANDATE_JWT.typ;

/** Header members by which a token would name its own key: never consulted, refused outright. */
const REFUSED_HEADERS = ['jku', 'x5u', 'jwk', 'x5c', 'crit'] as const;

export interface JoseMandateVerifierOptions {
  clock?: Clock;
  /** Allowed clock difference with the issuer for `exp`, `nbf` and `iat`. */
  clockSkewSeconds?: number;
  /** An unknown kid refetches the JWKS at most once per this period. */
  refetchCooldownMs?: number;
  /** Known keys older than this are refreshed (in the background; known kids keep verifying). */
  keysMaxAgeMs?: number;
  /** With no keys at all, a failed fetch is not retried for this long (503 meanwhile). */
  failureBackoffMs?: number;
  /** Verified-token cache size (LRU); 0 turns it off. */
  cacheEntries?: number;
  /** Longer tokens are refused unparsed. */
  maxTokenLength?: number;
  issuer?: string;
}

const DEFAULTS = {
  clockSkewSeconds: 30,
  refetchCooldownMs: 30_000,
  keysMaxAgeMs: 60_000,
  failureBackoffMs: 1_000,
  cacheEntries: 10_000,
  maxTokenLength: 16 * 1024,
} as const;

type Claims = Omit<VerifiedMandateClaims, 'kid'>;
type Verdict = { ok: true; claims: VerifiedMandateClaims } | { ok: false; reason: MandateInvalidReason };

const invalid = (reason: MandateInvalidReason): Verdict => ({ ok: false, reason });
const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The mandate claims DESIGN 6.8 requires, well-typed; null when anything is missing or off. */
function parseClaims(raw: unknown, issuer: string): Claims | null {
  if (!isObject(raw)) return null;
  const { iss, sub, aud, org, intent_id, prompt_id, scope, ctx, acr, iat, nbf, exp, jti } = raw;
  if (iss !== issuer || !isText(sub) || !isText(aud) || !isText(org) || !isText(intent_id) || !isText(jti)) return null;
  // Optional (DESIGN 6.8): absent when the mandate is bound to no prompt; never null or empty.
  if (prompt_id !== undefined && !isText(prompt_id)) return null;
  if (!isTime(exp) || (iat !== undefined && !isTime(iat)) || (nbf !== undefined && !isTime(nbf))) return null;
  if (!isObject(scope) || !isStringArray(scope['operations']) || !isStringArray(scope['resources']) || !isStringArray(scope['forbidden_operations']))
    return null;
  if (ctx !== undefined && !isObject(ctx)) return null;
  if (acr !== undefined && typeof acr !== 'string') return null;
  return {
    iss,
    sub,
    aud,
    org,
    intent_id,
    ...(prompt_id !== undefined ? { prompt_id } : {}),
    scope: { operations: [...scope['operations']], resources: [...scope['resources']], forbidden_operations: [...scope['forbidden_operations']] },
    ctx: ctx ?? {},
    ...(acr !== undefined ? { acr } : {}),
    ...(iat !== undefined ? { iat } : {}),
    ...(nbf !== undefined ? { nbf } : {}),
    exp,
    jti,
  };
}

/** RSA signing keys of the set (kid, n, e; ≥ 2048 bits; `alg` RS256 and `use` sig when given); others are ignored. */
function importKeys(keys: readonly JWK[]): Map<string, KeyObject> {
  const out = new Map<string, KeyObject>();
  for (const jwk of keys) {
    if (!jwk || jwk.kty !== 'RSA' || !isText(jwk.kid) || !isText(jwk.n) || !isText(jwk.e)) continue;
    if ((jwk.alg !== undefined && jwk.alg !== MANDATE_ALG) || (jwk.use !== undefined && jwk.use !== 'sig')) continue;
    try {
      const key = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' });
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) continue;
      out.set(jwk.kid, key);
    } catch {
      // not a usable RSA key: ignored like any other foreign key
    }
  }
  return out;
}

/** `typ` is a media type: case-insensitive, `application/` may be left out (RFC 7515 4.1.9). */
function isMandateTyp(typ: unknown): boolean {
  if (typeof typ !== 'string') return false;
  const t = typ.toLowerCase();
  return t === MANDATE_TYP || t === `application/${MANDATE_TYP}`;
}

/**
 * Verifies mandates (DESIGN 6.8, 8) against the issuer's JWKS: RS256 only, `typ mandate+jwt`,
 * a `kid` of the cached key set (an unknown kid refetches the set at most once per cooldown;
 * keys named by the token are never fetched), signature, `exp`/`nbf`/`iat` with a small skew,
 * `aud`, the required claims, and revocation. Claims of verified tokens are cached (LRU, until
 * `exp`); expiry, audience, revocation and the key still being published are checked on every call.
 */
export class JoseMandateVerifier implements MandateVerifier {
  private readonly log = new Logger('MandateVerifier');
  private readonly clock: Clock;
  private readonly opts: Required<Omit<JoseMandateVerifierOptions, 'clock'>>;
  private keys: Map<string, KeyObject> | null = null;
  private keysAt = 0;
  /** Last fetch attempt (success or not): the refetch cooldown counts from it. */
  private lastFetchAt = Number.NEGATIVE_INFINITY;
  private lastFailureAt = Number.NEGATIVE_INFINITY;
  private inflight: Promise<boolean> | null = null;
  /** token → verified claims (insertion order = least recently used first). */
  private readonly verified: BoundedMap<string, VerifiedMandateClaims>;

  constructor(
    private readonly source: JwksSource,
    private readonly revocations: RevocationSet,
    options: JoseMandateVerifierOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.opts = {
      clockSkewSeconds: options.clockSkewSeconds ?? DEFAULTS.clockSkewSeconds,
      refetchCooldownMs: options.refetchCooldownMs ?? DEFAULTS.refetchCooldownMs,
      keysMaxAgeMs: options.keysMaxAgeMs ?? DEFAULTS.keysMaxAgeMs,
      failureBackoffMs: options.failureBackoffMs ?? DEFAULTS.failureBackoffMs,
      cacheEntries: options.cacheEntries ?? DEFAULTS.cacheEntries,
      maxTokenLength: options.maxTokenLength ?? DEFAULTS.maxTokenLength,
      issuer: options.issuer ?? MANDATE_ISSUER,
    };
    // At least one slot: with cacheEntries 0 nothing is ever added (see verify).
    this.verified = new BoundedMap(Math.max(1, this.opts.cacheEntries));
  }

  async verify(token: string, options: MandateVerifyOptions): Promise<MandateVerification> {
    const verdict = await this.verifyToken(token, options.audience);
    if (verdict.ok && options.orgId !== undefined && verdict.claims.org !== options.orgId) return { ok: false, reason: 'org_mismatch', claims: verdict.claims };
    return verdict;
  }

  /** Loads the keys now (e.g. at start-up); false when the source failed. */
  async warmUp(): Promise<boolean> {
    return this.refresh();
  }

  private async verifyToken(token: string, audience: string): Promise<Verdict> {
    if (typeof token !== 'string' || token.length > this.opts.maxTokenLength) return invalid('malformed');
    // One spelling per token (DESIGN 6.12): jose decodes leniently (`sig==`, stray bits), so refuse before it sees one.
    if (!isCanonicalCompactJws(token)) return invalid('malformed');
    const now = this.clock.now().getTime();
    this.maybeRefreshInBackground(now);

    const cached = this.verified.get(token);
    if (cached !== undefined && this.keys?.has(cached.kid)) {
      this.verified.delete(token); // LRU: move to the back
      this.verified.set(token, cached);
      return this.check(token, cached, audience, now);
    }
    if (cached !== undefined) this.verified.delete(token); // its key is no longer published

    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return invalid('malformed');
    }
    if (REFUSED_HEADERS.some((name) => Object.prototype.hasOwnProperty.call(header, name))) return invalid('header');
    if (header.alg !== MANDATE_ALG) return invalid('alg');
    if (!isMandateTyp(header.typ)) return invalid('typ');
    if (!isText(header.kid)) return invalid('kid');
    const key = await this.keyFor(header.kid, now);
    if (!key) return invalid('kid');

    let payload: Uint8Array;
    try {
      ({ payload } = await compactVerify(token, key, { algorithms: [MANDATE_ALG] }));
    } catch (e) {
      if (e instanceof errors.JWSSignatureVerificationFailed) return invalid('signature');
      if (e instanceof errors.JOSEAlgNotAllowed) return invalid('alg');
      if (e instanceof errors.JOSEError) return invalid('malformed');
      throw e; // not the token's fault (the runtime's crypto): surfaces as a 500
    }
    let raw: unknown;
    try {
      raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
    } catch {
      return invalid('malformed');
    }
    const parsed = parseClaims(raw, this.opts.issuer);
    if (!parsed) return invalid('claims');
    const claims: VerifiedMandateClaims = { ...parsed, kid: header.kid };
    const verdict = this.check(token, claims, audience, now);
    // Cache only what verified or may still verify (another audience); expired tokens never enter.
    if (this.opts.cacheEntries > 0 && (verdict.ok || verdict.reason === 'audience' || verdict.reason === 'not_yet_valid')) {
      this.verified.set(token, claims);
    }
    return verdict;
  }

  /** The per-call checks, for fresh and cached claims alike. */
  private check(token: string, claims: VerifiedMandateClaims, audience: string, nowMs: number): Verdict {
    const now = nowMs / 1000;
    const skew = this.opts.clockSkewSeconds;
    if (now >= claims.exp + skew) {
      this.verified.delete(token); // never valid again
      return invalid('expired');
    }
    if ((claims.nbf !== undefined && claims.nbf > now + skew) || (claims.iat !== undefined && claims.iat > now + skew)) return invalid('not_yet_valid');
    if (claims.aud !== audience) return invalid('audience');
    if (this.revocations.isRevoked(claims.jti)) return invalid('revoked');
    return { ok: true, claims };
  }

  /**
   * The key for `kid`. An unknown kid refetches the set when none is loaded yet or the cooldown
   * has passed; with no keys at all and the source down this throws (503, fail closed).
   */
  private async keyFor(kid: string, now: number): Promise<KeyObject | null> {
    if (this.keys === null) {
      if (now - this.lastFailureAt >= this.opts.failureBackoffMs || this.inflight) await this.refresh();
      const loaded = this.loadedKeys();
      if (loaded === null) throw new DependencyUnavailableError('mandate issuer JWKS');
      return loaded.get(kid) ?? null;
    }
    const key = this.keys.get(kid);
    if (key) return key;
    if (this.inflight) await this.inflight;
    else if (now - this.lastFetchAt >= this.opts.refetchCooldownMs) await this.refresh();
    return this.loadedKeys()?.get(kid) ?? null;
  }

  /** The key set as it is now (a read that control-flow narrowing does not carry across awaits). */
  private loadedKeys(): Map<string, KeyObject> | null {
    return this.keys;
  }

  private maybeRefreshInBackground(now: number): void {
    if (this.keys === null || this.inflight || now - this.keysAt < this.opts.keysMaxAgeMs) return;
    if (now - this.lastFetchAt < this.opts.refetchCooldownMs) return; // failed recently: keep what we have
    void this.refresh();
  }

  /** One fetch at a time; on failure the known keys stay. */
  private refresh(): Promise<boolean> {
    if (this.inflight) return this.inflight;
    const started = this.clock.now().getTime();
    this.lastFetchAt = started;
    this.inflight = (async () => {
      try {
        const set = await this.source.fetch();
        this.keys = importKeys(Array.isArray(set?.keys) ? set.keys : []);
        this.keysAt = started;
        return true;
      } catch (err) {
        this.log.warn(`fetching the mandate JWKS failed: ${(err as Error)?.message ?? String(err)}`);
        this.lastFailureAt = started;
        return false;
      } finally {
        this.inflight = null;
      }
    })();
    return this.inflight;
  }
}
