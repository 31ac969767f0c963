import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { SignJWT } from 'jose';
import { closeFakeHttpServer, startFakeHttpServer } from './fake-http-server';

/**
 * A mandate issuer for broker tests: an RS256 key and a tiny server publishing its JWKS at
 * `/v1/mandate/jwks` (as the gateway does), so a Vault or Conjur fake fetches it over HTTP.
 */
export interface TestJwtIssuer {
  jwksUrl: string;
  /** Requests the JWKS server received. */
  readonly jwksHits: number;
  /** A signed mandate: the default claims, then `claims`; `aud` defaults to the issuer's audience. */
  sign(claims?: Record<string, unknown>, options?: { aud?: string; expSeconds?: number; key?: KeyObject; kid?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestJwtIssuer(opts: { iss: string; aud: string; claims: Record<string, unknown> }): Promise<TestJwtIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `k-${randomUUID()}`;
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256', use: 'sig' };
  const state = { hits: 0 };
  const server = await startFakeHttpServer(
    (s) => s,
    async (_s, req, res) => {
      state.hits++;
      const body = JSON.stringify({ keys: [jwk] });
      res.writeHead(req.url === '/v1/mandate/jwks' ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' }).end(body);
    },
  );
  const port = (server.address() as { port: number }).port;
  return {
    jwksUrl: `http://127.0.0.1:${port}/v1/mandate/jwks`,
    get jwksHits() {
      return state.hits;
    },
    async sign(claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...opts.claims, ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'mandate+jwt', kid: options.kid ?? kid })
        .setIssuer(opts.iss)
        .setSubject('agent-7')
        .setAudience(options.aud ?? opts.aud)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + (options.expSeconds ?? 600))
        .setJti(`cred_${randomUUID()}`)
        .sign(options.key ?? privateKey);
    },
    close: () => closeFakeHttpServer(server),
  };
}
