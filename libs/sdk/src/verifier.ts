import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors, jwtVerify, type JWTVerifyGetKey, type ProtectedHeaderParameters } from 'jose';

/** The claims a mandate carries (the gateway's mandate issuer signs them; RS256, `typ: mandate+jwt`). */
export interface MandateClaims {
  /** `intent-gateway`. */
  iss: string;
  /** The actor the mandate is bound to. */
  sub: string;
  aud: string;
  /** The organisation of the key that dispensed it. */
  org: string;
  /** The intent card. */
  intent_id: string;
  /** Absent when the mandate is bound to no prompt. */
  prompt_id?: string;
  scope: { operations: string[]; resources: string[]; forbidden_operations: string[] };
  /** The dispense request's context. */
  ctx: Record<string, unknown>;
  acr?: string;
  iat: number;
  nbf?: number;
  exp: number;
  /** The cred_id. */
  jti: string;
}

export type MandateRejection =
  'malformed' | 'header' | 'alg' | 'typ' | 'kid' | 'signature' | 'expired' | 'not_yet_valid' | 'audience' | 'issuer' | 'claims' | 'jwks_unavailable';

export class MandateVerificationError extends Error {
  override readonly name = 'MandateVerificationError';
  constructor(
    readonly reason: MandateRejection,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface MandateVerifierOptions {
  /** The gateway's base URL: the keys are read from `{baseUrl}/v1/mandate/jwks`. */
  baseUrl?: string;
  /** Or the JWKS URL itself. */
  jwksUrl?: string;
  /** Or a key source of your own (jose's JWTVerifyGetKey), e.g. createLocalJWKSet. */
  keys?: JWTVerifyGetKey;
  /** The audience (or audiences) this service accepts; required. */
  audience: string | string[];
  /** Default `intent-gateway`. */
  issuer?: string;
  /** Allowed algorithms (default `['RS256']`); `none` and HMAC algorithms are never accepted. */
  algorithms?: string[];
  /** Allowed clock difference for exp / nbf / iat (default 30 s). */
  clockToleranceSeconds?: number;
  /** Key-set cache: refreshed after this long (default 60 s, the endpoint's max-age). */
  cacheMaxAgeMs?: number;
  /** An unknown kid refetches the set at most once per this period (default 30 s). */
  cooldownMs?: number;
  /** Deadline of a JWKS fetch (default 5 s). */
  timeoutMs?: number;
  /** A fetch of your own for the JWKS. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export const MANDATE_TYP = 'mandate+jwt';
const REFUSED_HEADERS = ['jku', 'x5u', 'jwk', 'x5c'] as const;
const REQUIRED_CLAIMS = ['iss', 'sub', 'aud', 'org', 'intent_id', 'scope', 'iat', 'exp', 'jti'];

const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function reject(reason: MandateRejection, message: string, cause?: unknown): never {
  throw new MandateVerificationError(reason, message, cause === undefined ? undefined : { cause });
}

function checkShape(p: Record<string, unknown>): MandateClaims {
  const scope = p['scope'];
  if (!isText(p['sub']) || !isText(p['org']) || !isText(p['intent_id']) || !isText(p['jti'])) reject('claims', 'sub, org, intent_id and jti must be strings');
  if (!isObject(scope) || !isStrings(scope['operations']) || !isStrings(scope['resources']) || !isStrings(scope['forbidden_operations']))
    reject('claims', 'scope must have operations, resources and forbidden_operations');
  if (p['prompt_id'] !== undefined && !isText(p['prompt_id'])) reject('claims', 'prompt_id must be a non-empty string when present');
  if (p['ctx'] !== undefined && !isObject(p['ctx'])) reject('claims', 'ctx must be an object');
  return { ...(p as unknown as MandateClaims), ctx: (p['ctx'] as Record<string, unknown> | undefined) ?? {} };
}

/**
 * Verifies mandates locally, as a downstream service does before acting on one: the key is
 * chosen by `kid` from the gateway's JWKS (cached; an unknown kid refetches, with a cooldown),
 * the algorithm must be on the allowlist, `typ` must be `mandate+jwt`, and the signature, `iss`,
 * `aud`, `exp`/`nbf`/`iat` and the claims a mandate carries are checked. Revocation is not local:
 * ask the gateway (GET /v1/mandate/{cred_id}) when a revoked mandate must be refused at once.
 */
export function createMandateVerifier(options: MandateVerifierOptions) {
  const algorithms = (options.algorithms ?? ['RS256']).filter((a) => a !== 'none' && !/^HS/i.test(a));
  if (algorithms.length === 0) throw new Error('createMandateVerifier: no acceptable algorithm in the allowlist');
  const issuer = options.issuer ?? 'intent-gateway';
  const url = options.jwksUrl ?? (options.baseUrl ? `${options.baseUrl.replace(/\/+$/, '')}/v1/mandate/jwks` : undefined);
  const keys: JWTVerifyGetKey =
    options.keys ??
    (() => {
      if (!url) throw new Error('createMandateVerifier: give baseUrl, jwksUrl or keys');
      return createRemoteJWKSet(new URL(url), {
        cacheMaxAge: options.cacheMaxAgeMs ?? 60_000,
        cooldownDuration: options.cooldownMs ?? 30_000,
        timeoutDuration: options.timeoutMs ?? 5_000,
        ...(options.fetch ? { [customFetch]: options.fetch } : {}),
      });
    })();

  return {
    /** The verified claims, or a MandateVerificationError saying why not. */
    async verify(token: string, opts: { audience?: string | string[] } = {}): Promise<MandateClaims> {
      let header: ProtectedHeaderParameters;
      try {
        header = decodeProtectedHeader(token);
      } catch (err) {
        return reject('malformed', 'not a compact JWS', err);
      }
      if (REFUSED_HEADERS.some((h) => Object.prototype.hasOwnProperty.call(header, h))) reject('header', 'the token names its own key (jku, x5u, jwk, x5c)');
      if (!isText(header.alg) || !algorithms.includes(header.alg)) reject('alg', `algorithm ${String(header.alg)} is not allowed`);
      if (typeof header.typ !== 'string' || !['mandate+jwt', 'application/mandate+jwt'].includes(header.typ.toLowerCase()))
        reject('typ', 'typ must be mandate+jwt');
      if (!isText(header.kid)) reject('kid', 'the token has no kid');
      try {
        const { payload } = await jwtVerify(token, keys, {
          algorithms,
          issuer,
          audience: opts.audience ?? options.audience,
          clockTolerance: options.clockToleranceSeconds ?? 30,
          requiredClaims: REQUIRED_CLAIMS,
        });
        return checkShape(payload as Record<string, unknown>);
      } catch (err) {
        if (err instanceof MandateVerificationError) throw err;
        if (err instanceof errors.JWTExpired) reject('expired', 'the mandate has expired', err);
        if (err instanceof errors.JWTClaimValidationFailed) {
          if (err.claim === 'aud') reject('audience', 'the mandate is not for this audience', err);
          if (err.claim === 'iss') reject('issuer', 'the mandate was not issued by the gateway', err);
          if ((err.claim === 'nbf' || err.claim === 'iat') && err.reason === 'check_failed') reject('not_yet_valid', 'the mandate is not valid yet', err);
          reject('claims', err.message, err);
        }
        if (err instanceof errors.JWSSignatureVerificationFailed) reject('signature', 'the signature does not verify', err);
        if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys)
          reject('kid', `no published key has kid ${header.kid}`, err);
        if (err instanceof errors.JOSEAlgNotAllowed) reject('alg', err.message, err);
        if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) reject('jwks_unavailable', err.message, err);
        if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid || err instanceof errors.JOSENotSupported)
          reject('malformed', err.message, err);
        if (err instanceof errors.JOSEError) reject('malformed', err.message, err);
        // The key set could not be fetched at all (network).
        return reject('jwks_unavailable', `the key set could not be read: ${(err as Error)?.message ?? String(err)}`, err);
      }
    },
  };
}

export type MandateVerifier = ReturnType<typeof createMandateVerifier>;
