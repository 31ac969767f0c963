import { Agent } from 'undici';
import { boundedRequest, OutboundRequestError } from '@igw/http';
import type { JWK } from 'jose';
import { DependencyUnavailableError } from '@igw/kernel';
import type { JwkSet, JwksSource } from '../../application/verification/jwks-source.port';

const MAX_BODY_BYTES = 256 * 1024;
const DEPENDENCY = 'mandate issuer JWKS';

export interface HttpJwksSourceOptions {
  /** One deadline for connect, answer and body. */
  timeoutMs?: number;
  dispatcher?: Agent;
}

/** The RSA keys of a JWKS body (`kty RSA` with string `kid`, `n`, `e`); other keys are dropped. Null when the body is no JWKS. */
export function rsaKeysOf(body: unknown): JWK[] | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { keys?: unknown }).keys)) return null;
  const keys: JWK[] = [];
  for (const k of (body as { keys: unknown[] }).keys) {
    if (typeof k !== 'object' || k === null) continue;
    const { kty, kid, n, e, alg, use } = k as Record<string, unknown>;
    if (kty !== 'RSA' || typeof kid !== 'string' || kid === '' || typeof n !== 'string' || n === '' || typeof e !== 'string' || e === '') continue;
    // Public members only: a private `d` (a misconfigured issuer) is never carried along.
    keys.push({ kty, kid, n, e, ...(typeof alg === 'string' ? { alg } : {}), ...(typeof use === 'string' ? { use } : {}) });
  }
  return keys;
}

/**
 * The issuer's JWKS over HTTP (distributed mode): `GET {url}` (the mandate issuer's
 * `/v1/mandate/jwks`, fixed by configuration) over a keep-alive pool, bounded by one deadline.
 * Redirects are not followed (undici's default). No answer, a non-200 status, an oversized or non-JWKS body → DependencyUnavailableError.
 */
export class HttpJwksSource implements JwksSource {
  private readonly dispatcher: Agent;
  private readonly timeoutMs: number;

  constructor(
    private readonly url: string,
    options: HttpJwksSourceOptions = {},
  ) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`JWKS url must be http(s): ${url}`);
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.dispatcher = options.dispatcher ?? new Agent({ connections: 4, keepAliveTimeout: 30_000, connect: { timeout: this.timeoutMs } });
  }

  async fetch(): Promise<JwkSet> {
    let answer: { status: number; text: string };
    try {
      answer = await boundedRequest(this.url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        dispatcher: this.dispatcher,
        timeoutMs: this.timeoutMs,
        maxBytes: MAX_BODY_BYTES,
        readBody: (status) => status === 200,
      });
    } catch (err) {
      if (!(err instanceof OutboundRequestError)) throw err;
      if (err.failure === 'too_large') throw new DependencyUnavailableError(`${DEPENDENCY} (body over ${MAX_BODY_BYTES} bytes)`);
      if (err.failure === 'timeout') throw new DependencyUnavailableError(`${DEPENDENCY} (no answer within ${this.timeoutMs} ms)`, err);
      throw new DependencyUnavailableError(`${DEPENDENCY}${err.code ? ` (${err.code})` : ''}`, err);
    }
    if (answer.status !== 200) throw new DependencyUnavailableError(`${DEPENDENCY} (HTTP ${answer.status})`);
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      throw new DependencyUnavailableError(`${DEPENDENCY} (body is not JSON)`);
    }
    const keys = rsaKeysOf(body);
    if (keys === null) throw new DependencyUnavailableError(`${DEPENDENCY} (body is not a JWKS)`);
    return { keys };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/**
 * The JWKS of an issuer with several replicas (their URLs listed): each fetch starts at the next
 * replica and moves on while one cannot answer, so one replica restarting never blocks a refresh.
 */
export class ReplicatedJwksSource implements JwksSource {
  private next = 0;

  constructor(private readonly sources: readonly JwksSource[]) {
    if (sources.length === 0) throw new Error('no JWKS source');
  }

  async fetch(): Promise<JwkSet> {
    const start = this.next++ % this.sources.length;
    let last: unknown;
    for (let i = 0; i < this.sources.length; i++) {
      try {
        return await (this.sources[(start + i) % this.sources.length] as JwksSource).fetch();
      } catch (err) {
        if (!(err instanceof DependencyUnavailableError)) throw err;
        last = err;
      }
    }
    throw last;
  }

  async close(): Promise<void> {
    await Promise.all(this.sources.map((s) => (s as { close?: () => Promise<void> }).close?.()));
  }
}
