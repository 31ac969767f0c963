import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { closeFakeHttpServer, playFakeConnection, readFakeRequest, startFakeHttpServer } from './fake-http-server';
import { fakeJwtKeys } from './fake-jwt-keys';

/**
 * A local server speaking Conjur's JWT Authenticator REST API (and `whoami`), for tests (int
 * and e2e): a real `node:http` server on a free loopback port.
 *
 * - `POST /authn-jwt/{service-id}/{account}[/{host-id}]/authenticate`, form body
 *   `jwt=<token>`. The JWT is verified with jose against `jwksUrl` (the authenticator's
 *   `jwks-uri`) or `jwks` (`public-keys`), RS256/384/512, `exp` required, `issuer` and
 *   `audience` when configured. The host identity comes from the URL (`host-id`, URL-encoded,
 *   e.g. `host%2Fjwt-apps%2Fmyapp`) or, with `tokenAppProperty`, from that claim (prefixed
 *   `host/` and `identityPath`; the URL must then carry no host id). With `hosts`, the host must
 *   be listed and the JWT must carry each of its annotated claims. Answers 200 with an access
 *   token — base64 (`Content-Type: text/plain`, `Content-Encoding: base64`) when the request
 *   says `Accept-Encoding: base64`, else the raw JSON token — valid 8 minutes; 401 (empty
 *   body) for a JWT or host Conjur refuses, an unknown authenticator or account; 400 without a
 *   `jwt` parameter.
 * - `GET /whoami` with `Authorization: Token token="<base64 token>"` → `{account, username}`;
 *   401 for a token it did not issue or that expired.
 * - Failures are scripted with `script(...replies)`, used once each in order by the next
 *   authenticate calls (`{status: 500}`, `{delayMs: 2000}` = answer normally but late,
 *   `{hang: true}`, `{destroy: true}`).
 * - Every request is recorded in `requests`.
 *
 *   const conjur = await ConjurFakeServer.start({ account: 'myorg', serviceId: 'gateway', jwksUrl, audience: 'conjur' });
 *   new ConjurAuthnJwtBroker({ url: conjur.url, account: 'myorg', serviceId: 'gateway', hostId: 'host/agents' });
 */

export interface ConjurFakeOptions {
  account: string;
  /** Service id of the `authn-jwt` webservice. */
  serviceId: string;
  /** The authenticator's `jwks-uri`. One of `jwksUrl` / `jwks` is required. */
  jwksUrl?: string;
  /** The authenticator's `public-keys` (a JWKS). */
  jwks?: JSONWebKeySet;
  /** `issuer` variable: the JWT's `iss` must equal it. */
  issuer?: string;
  /** `audience` variable: the JWT's `aud` must contain it. */
  audience?: string;
  /** `token-app-property`: the claim naming the host (then the URL must not carry a host id). */
  tokenAppProperty?: string;
  /** `identity-path`, prefixed to the claim value: `host/<identity-path>/<claim value>`. */
  identityPath?: string;
  /** Known hosts (full ids, `host/...`) and the claims their annotations require. Unset: any host. */
  hosts?: Record<string, Record<string, string>>;
}

export type ConjurFakeReply = { status?: number; text?: string; delayMs?: number } | { hang: true } | { destroy: true };

export interface ConjurRecordedRequest {
  method: string;
  /** Path as received (still URL-encoded). */
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw body. */
  body: string;
}

/** Conjur access tokens last 8 minutes. */
export const CONJUR_FAKE_TOKEN_TTL_SECONDS = 480;

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export class ConjurFakeServer {
  readonly requests: ConjurRecordedRequest[] = [];
  private readonly scripts: ConjurFakeReply[] = [];
  /** base64 token → who and until when. */
  private readonly issued = new Map<string, { host: string; exp: number }>();
  private readonly keys: JWTVerifyGetKey;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: ConjurFakeOptions,
  ) {
    this.keys = fakeJwtKeys('ConjurFakeServer', options);
  }

  static async start(options: ConjurFakeOptions): Promise<ConjurFakeServer> {
    return startFakeHttpServer(
      (server, port) => new ConjurFakeServer(server, port, options),
      (fake, req, res) => fake.handle(req, res),
    );
  }

  /** `CONJUR_URL` for clients. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Queues replies for the next authenticate calls, used once each before normal answers return. */
  script(...replies: ConjurFakeReply[]): this {
    this.scripts.push(...replies);
    return this;
  }

  /** The host a (base64) access token authenticates, while it is valid; undefined otherwise. */
  hostOf(token: string): string | undefined {
    const t = this.issued.get(token);
    return t && t.exp * 1000 > Date.now() ? t.host : undefined;
  }

  requestsTo(pathPrefix: string): ConjurRecordedRequest[] {
    return this.requests.filter((r) => r.path.startsWith(pathPrefix));
  }

  reset(): void {
    this.requests.length = 0;
    this.scripts.length = 0;
    this.issued.clear();
  }

  async close(): Promise<void> {
    await closeFakeHttpServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path, raw: body } = await readFakeRequest(req);
    this.requests.push({ method, path, headers: req.headers, body });

    if (method === 'GET' && path === '/whoami') return this.whoami(req, res);
    const m = /^\/authn-jwt\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/authenticate$/.exec(path);
    if (method !== 'POST' || !m) return this.send(res, 404);

    const scripted = this.scripts.shift();
    if (scripted) {
      const answer = await playFakeConnection(res, scripted);
      if (!answer) return;
      if (answer.status !== undefined || answer.text !== undefined) return this.send(res, answer.status ?? 200, answer.text);
    }
    if (res.destroyed) return;

    const [serviceId, account, hostInUrl] = [m[1], m[2], m[3]].map((s) => (s === undefined ? undefined : decodeURIComponent(s)));
    if (serviceId !== this.options.serviceId || account !== this.options.account) return this.send(res, 401);
    const jwt = new URLSearchParams(body).get('jwt');
    if (!jwt)
      return this.send(
        res,
        400,
        JSON.stringify({ error: { code: 'bad_request', message: 'The request body is missing the jwt parameter' } }),
        'application/json',
      );

    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(jwt, this.keys, {
        algorithms: ['RS256', 'RS384', 'RS512'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        requiredClaims: ['exp'],
        clockTolerance: 0,
      }));
    } catch {
      return this.send(res, 401);
    }

    let host: string;
    if (this.options.tokenAppProperty) {
      if (hostInUrl !== undefined) return this.send(res, 401);
      const value = claims[this.options.tokenAppProperty];
      if (typeof value !== 'string' || value === '') return this.send(res, 401);
      host = ['host', this.options.identityPath, value].filter(Boolean).join('/');
    } else {
      if (hostInUrl === undefined) return this.send(res, 401);
      host = hostInUrl;
    }
    if (this.options.hosts) {
      const annotations = Object.prototype.hasOwnProperty.call(this.options.hosts, host) ? this.options.hosts[host] : undefined;
      if (!annotations) return this.send(res, 401);
      for (const [claim, expected] of Object.entries(annotations)) {
        const actual = claims[claim];
        const values = Array.isArray(actual) ? actual : [actual];
        if (!values.includes(expected)) return this.send(res, 401);
      }
    }

    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + CONJUR_FAKE_TOKEN_TTL_SECONDS;
    const raw = JSON.stringify({
      protected: b64url({ alg: 'conjur.org/slosilo/v2', kid: randomBytes(16).toString('hex') }),
      payload: b64url({ sub: host, iat, exp }),
      signature: randomBytes(256).toString('base64url'),
    });
    const base64 = Buffer.from(raw, 'utf8').toString('base64');
    this.issued.set(base64, { host, exp });
    const acceptEncoding = String(req.headers['accept-encoding'] ?? '');
    if (/\bbase64\b/i.test(acceptEncoding)) {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'base64', 'content-length': Buffer.byteLength(base64) });
      res.end(base64);
      return;
    }
    return this.send(res, 200, raw, 'application/json');
  }

  private whoami(req: IncomingMessage, res: ServerResponse): void {
    const auth = String(req.headers.authorization ?? '');
    const m = /^Token token="([^"]+)"$/.exec(auth);
    const token = m?.[1];
    const host = token ? this.hostOf(token) : undefined;
    if (!host) return this.send(res, 401);
    this.send(
      res,
      200,
      JSON.stringify({ client_ip: '127.0.0.1', user_agent: String(req.headers['user-agent'] ?? ''), account: this.options.account, username: host }),
      'application/json',
    );
  }

  private send(res: ServerResponse, status: number, text?: string, contentType = 'text/plain'): void {
    if (res.destroyed) return;
    if (text === undefined) {
      res.writeHead(status, { 'content-length': 0 }).end();
      return;
    }
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}
