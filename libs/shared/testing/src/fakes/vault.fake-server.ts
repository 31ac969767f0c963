import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { closeFakeHttpServer, playFakeConnection, readFakeRequest, startFakeHttpServer } from './fake-http-server';
import { fakeJwtKeys } from './fake-jwt-keys';

/**
 * A local server speaking the parts of HashiCorp Vault's HTTP API that a JWT-login client uses,
 * for tests (int and e2e): a real `node:http` server on a free loopback port.
 *
 * - `POST /v1/auth/{mount}/login {role?, jwt}` — the JWT/OIDC auth method. The JWT is verified
 *   with jose against `jwksUrl` (Vault's `jwks_url`) or `jwks` (the keys themselves), with
 *   `bound_issuer`, then the role's `bound_audiences` (a JWT with `aud` needs them),
 *   `bound_subject`, `bound_claims` and `user_claim`. Answers
 *   `{auth: {client_token, accessor, policies, token_policies, metadata: {role}, lease_duration,
 *   renewable, entity_id, token_type, orphan}}`; 400 `{errors: [...]}` as Vault does for a
 *   missing or unknown role, a missing token or a JWT that fails validation.
 * - `GET /v1/auth/token/lookup-self` (`X-Vault-Token` or `Authorization: Bearer`) → `{data:
 *   {accessor, id, ttl, policies, meta, type, …}}`; 403 `{errors: ["permission denied"]}` for a
 *   token it does not know (never issued, expired, revoked).
 * - `POST /v1/auth/token/revoke-self` → 204 and the token is gone; 403 for an unknown token.
 * - With `rootToken`: `POST /v1/auth/token/revoke {token}`, `POST /v1/auth/token/revoke-accessor
 *   {accessor}` (204) and `POST /v1/auth/token/lookup-accessor {accessor}`.
 * - With `namespace`, login must carry `X-Vault-Namespace: <namespace>` (else 404, as Vault
 *   answers for a mount it cannot find).
 * - Failures are scripted per route with `script(route, ...replies)`: each reply is used once,
 *   in order (`VaultFakeServer.errors(503, 'Vault is sealed')`, `{delayMs: 2000}` = answer
 *   normally but late, `{hang: true}`, `{destroy: true}`); `sealed = true` answers 503 to all.
 * - Every request is recorded (method, path, headers, parsed body) in `requests`.
 *
 *   const vault = await VaultFakeServer.start({ jwksUrl, boundIssuer: 'https://gw', roles: { agent: { bound_audiences: ['vault'] } } });
 *   new VaultJwtBroker({ addr: vault.addr });
 *   await vault.close();
 */

export interface VaultFakeRole {
  /** `bound_audiences`: the JWT's `aud` must contain one. Unset: a JWT carrying `aud` is refused (as Vault does). */
  bound_audiences?: string[];
  bound_subject?: string;
  /** `bound_claims`: each claim must equal the value (or one of the values). */
  bound_claims?: Record<string, string | string[]>;
  /** Claim naming the user (default `sub`); it must be present. */
  user_claim?: string;
  /** Token TTL in seconds (default 2764800, Vault's default 768h). 0: no TTL. */
  token_ttl?: number;
  token_type?: 'service' | 'batch';
  token_policies?: string[];
}

export interface VaultFakeOptions {
  /** Where to fetch the issuer's JWKS (Vault's `jwks_url`). One of `jwksUrl` / `jwks` is required. */
  jwksUrl?: string;
  /** The issuer's public key set (Vault's `jwt_validation_pubkeys`, as JWKS). */
  jwks?: JSONWebKeySet;
  /** Vault's `bound_issuer`: the JWT's `iss` must equal it. */
  boundIssuer?: string;
  /** `jwt_supported_algs` (default RS256). */
  supportedAlgs?: string[];
  /** Mount path of the JWT auth method (default `jwt`). */
  mount?: string;
  /** When set, login must carry this `X-Vault-Namespace`. */
  namespace?: string;
  roles: Record<string, VaultFakeRole>;
  defaultRole?: string;
  /** A privileged token for revoke / revoke-accessor / lookup-accessor. */
  rootToken?: string;
}

/** A scripted answer. Without `status`/`json`/`text`, the request is answered normally after `delayMs`. */
export type VaultFakeReply =
  | { status?: number; json?: unknown; text?: string; delayMs?: number }
  /** Never answers (the connection stays open until the server closes). */
  | { hang: true }
  /** Closes the connection without an answer. */
  | { destroy: true };

export type VaultFakeRoute = 'login' | 'lookup-self' | 'revoke-self' | 'revoke' | 'revoke-accessor' | 'lookup-accessor' | '*';

export interface VaultRecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw string when it is not JSON, undefined when empty). */
  body: unknown;
}

interface IssuedToken {
  id: string;
  accessor: string;
  type: 'service' | 'batch';
  role: string;
  policies: string[];
  meta: Record<string, string>;
  displayName: string;
  entityId: string;
  issuedAt: number;
  /** ms epoch; null = no TTL. */
  expiresAt: number | null;
  ttl: number;
  namespace: string | null;
}

const DEFAULT_TTL = 2764800;

export class VaultFakeServer {
  readonly requests: VaultRecordedRequest[] = [];
  /** Answer 503 `Vault is sealed` to every request. */
  sealed = false;
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly scripts = new Map<VaultFakeRoute, VaultFakeReply[]>();
  private readonly keys: JWTVerifyGetKey;
  private readonly mount: string;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: VaultFakeOptions,
  ) {
    this.keys = fakeJwtKeys('VaultFakeServer', options);
    this.mount = (options.mount ?? 'jwt').replace(/^\/+|\/+$/g, '');
  }

  static async start(options: VaultFakeOptions): Promise<VaultFakeServer> {
    return startFakeHttpServer(
      (server, port) => new VaultFakeServer(server, port, options),
      (fake, req, res) => fake.handle(req, res),
      { internalError: (res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":["internal error"]}') },
    );
  }

  /** A Vault error answer: `{errors: messages}` with `status`. */
  static errors(status: number, ...messages: string[]): VaultFakeReply {
    return { status, json: { errors: messages } };
  }

  /** `VAULT_ADDR` for clients (`http://127.0.0.1:<port>`; the API is under `/v1`). */
  get addr(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Queues replies for one route (or `*`: any route), used once each before normal answers return. */
  script(route: VaultFakeRoute, ...replies: VaultFakeReply[]): this {
    const queue = this.scripts.get(route) ?? [];
    queue.push(...replies);
    this.scripts.set(route, queue);
    return this;
  }

  /** Whether Vault would still accept this token (issued, not revoked, not expired). */
  isLive(token: string): boolean {
    return this.live(token) !== undefined;
  }

  /** Number of live tokens. */
  get liveTokens(): number {
    return [...this.tokens.keys()].filter((t) => this.isLive(t)).length;
  }

  requestsTo(path: string): VaultRecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Forgets recorded requests, scripts and tokens; unseals. */
  reset(): void {
    this.requests.length = 0;
    this.scripts.clear();
    this.tokens.clear();
    this.sealed = false;
  }

  async close(): Promise<void> {
    await closeFakeHttpServer(this.server);
  }

  private live(token: string | undefined): IssuedToken | undefined {
    if (!token) return undefined;
    const t = this.tokens.get(token);
    if (!t) return undefined;
    if (t.expiresAt !== null && t.expiresAt <= Date.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return t;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path, body } = await readFakeRequest(req);
    this.requests.push({ method, path, headers: req.headers, body });

    const route = this.route(method, path);
    const scripted = (route && this.scripts.get(route)?.shift()) ?? this.scripts.get('*')?.shift();
    if (scripted) {
      const answer = await playFakeConnection(res, scripted);
      if (!answer) return;
      if (answer.status !== undefined || answer.json !== undefined || answer.text !== undefined)
        return this.send(res, answer.status ?? 200, answer.json, answer.text);
    }
    if (res.destroyed) return;
    if (this.sealed) return this.send(res, 503, { errors: ['Vault is sealed'] });

    const token = headerToken(req.headers);
    const b = (body ?? {}) as Record<string, unknown>;
    switch (route) {
      case 'login':
        return this.login(req, res, b);
      case 'lookup-self': {
        const t = this.live(token);
        return t ? this.send(res, 200, this.wrapData(this.describe(t, true))) : this.denied(res);
      }
      case 'revoke-self': {
        const t = this.live(token);
        if (!t) return this.denied(res);
        if (t.type === 'batch') return this.send(res, 400, { errors: ['batch tokens cannot be revoked'] });
        this.tokens.delete(t.id);
        return this.send(res, 204);
      }
      case 'revoke':
      case 'revoke-accessor':
      case 'lookup-accessor': {
        if (!this.options.rootToken || token !== this.options.rootToken) return this.denied(res);
        const target =
          route === 'revoke'
            ? this.live(typeof b['token'] === 'string' ? b['token'] : undefined)
            : [...this.tokens.values()].find((t) => t.accessor !== '' && t.accessor === b['accessor'] && this.isLive(t.id));
        if (route === 'lookup-accessor')
          return target ? this.send(res, 200, this.wrapData(this.describe(target, false))) : this.send(res, 400, { errors: ['invalid accessor'] });
        if (route === 'revoke-accessor' && !target) return this.send(res, 400, { errors: ['invalid accessor'] });
        if (target) this.tokens.delete(target.id);
        return this.send(res, 204);
      }
      default:
        return this.send(res, 404, { errors: [] });
    }
  }

  private route(method: string, path: string): VaultFakeRoute | undefined {
    if (method === 'POST' && path === `/v1/auth/${this.mount}/login`) return 'login';
    if (method === 'GET' && path === '/v1/auth/token/lookup-self') return 'lookup-self';
    if (method === 'POST' && path === '/v1/auth/token/revoke-self') return 'revoke-self';
    if (method === 'POST' && path === '/v1/auth/token/revoke') return 'revoke';
    if (method === 'POST' && path === '/v1/auth/token/revoke-accessor') return 'revoke-accessor';
    if (method === 'POST' && path === '/v1/auth/token/lookup-accessor') return 'lookup-accessor';
    return undefined;
  }

  private async login(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const ns = headerValue(req.headers['x-vault-namespace'])?.replace(/^\/+|\/+$/g, '') || null;
    const want = this.options.namespace?.replace(/^\/+|\/+$/g, '') || null;
    if (ns !== want) return this.send(res, 404, { errors: [`no handler for route "auth/${this.mount}/login". route entry not found.`] });

    const roleName = typeof body['role'] === 'string' && body['role'] ? body['role'] : this.options.defaultRole;
    if (!roleName) return this.bad(res, 'missing role');
    const role = Object.prototype.hasOwnProperty.call(this.options.roles, roleName) ? this.options.roles[roleName] : undefined;
    if (!role) return this.bad(res, `role "${roleName}" could not be found`);
    const jwt = body['jwt'];
    if (typeof jwt !== 'string' || jwt.length === 0) return this.bad(res, 'missing token');

    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(jwt, this.keys, {
        algorithms: this.options.supportedAlgs ?? ['RS256'],
        issuer: this.options.boundIssuer,
        clockTolerance: 0,
      }));
    } catch (err) {
      return this.bad(res, `error validating token: ${describeJoseError(err)}`);
    }
    const aud = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (role.bound_audiences?.length) {
      if (!aud.some((a) => role.bound_audiences!.includes(a)))
        return this.bad(res, 'error validating claims: invalid audience (aud) claim: audience claim does not match any expected audience');
    } else if (aud.length > 0) {
      return this.bad(res, 'audience claim found in JWT but no audiences bound to the role');
    }
    if (role.bound_subject !== undefined && claims.sub !== role.bound_subject) return this.bad(res, 'sub claim does not match bound subject');
    for (const [claim, expected] of Object.entries(role.bound_claims ?? {})) {
      const actual = claims[claim];
      const allowed = Array.isArray(expected) ? expected : [expected];
      const values = Array.isArray(actual) ? actual : [actual];
      if (!values.some((v) => typeof v === 'string' && allowed.includes(v)))
        return this.bad(res, `claim "${claim}" does not match any associated bound claim values`);
    }
    const userClaim = role.user_claim ?? 'sub';
    const user = claims[userClaim];
    if (typeof user !== 'string' || user === '') return this.bad(res, `claim "${userClaim}" not found in token`);

    const type = role.token_type ?? 'service';
    const ttl = role.token_ttl ?? DEFAULT_TTL;
    const issued: IssuedToken = {
      id: `${type === 'batch' ? 'hvb' : 'hvs'}.${randomBytes(type === 'batch' ? 48 : 18).toString('base64url')}`,
      accessor: type === 'batch' ? '' : randomBytes(18).toString('base64url'),
      type,
      role: roleName,
      policies: role.token_policies ?? [],
      meta: { role: roleName },
      displayName: `${this.mount}-${user}`,
      entityId: randomUUID(),
      issuedAt: Date.now(),
      expiresAt: ttl > 0 ? Date.now() + ttl * 1000 : null,
      ttl,
      namespace: want,
    };
    this.tokens.set(issued.id, issued);
    return this.send(res, 200, {
      request_id: randomUUID(),
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data: null,
      wrap_info: null,
      warnings: null,
      auth: {
        client_token: issued.id,
        accessor: issued.accessor,
        policies: ['default', ...issued.policies],
        token_policies: ['default', ...issued.policies],
        identity_policies: null,
        metadata: issued.meta,
        lease_duration: ttl,
        renewable: type === 'service',
        entity_id: issued.entityId,
        token_type: type,
        orphan: true,
        mfa_requirement: null,
        num_uses: 0,
      },
    });
  }

  private describe(t: IssuedToken, withId: boolean): Record<string, unknown> {
    const remaining = t.expiresAt === null ? 0 : Math.max(0, Math.floor((t.expiresAt - Date.now()) / 1000));
    return {
      accessor: t.accessor,
      creation_time: Math.floor(t.issuedAt / 1000),
      creation_ttl: t.ttl,
      display_name: t.displayName,
      entity_id: t.entityId,
      expire_time: t.expiresAt === null ? null : new Date(t.expiresAt).toISOString(),
      explicit_max_ttl: 0,
      id: withId ? t.id : '',
      issue_time: new Date(t.issuedAt).toISOString(),
      meta: t.meta,
      num_uses: 0,
      orphan: true,
      path: `auth/${this.mount}/login`,
      policies: ['default', ...t.policies],
      renewable: t.type === 'service',
      ttl: remaining,
      type: t.type,
      namespace_path: t.namespace ? `${t.namespace}/` : '',
    };
  }

  private wrapData(data: Record<string, unknown>): Record<string, unknown> {
    return { request_id: randomUUID(), lease_id: '', renewable: false, lease_duration: 0, data, wrap_info: null, warnings: null, auth: null };
  }

  private bad(res: ServerResponse, message: string): void {
    this.send(res, 400, { errors: [message] });
  }

  private denied(res: ServerResponse): void {
    this.send(res, 403, { errors: ['permission denied'] });
  }

  private send(res: ServerResponse, status: number, json?: unknown, text?: string): void {
    if (res.destroyed) return;
    if (json === undefined && text === undefined) {
      res.writeHead(status).end();
      return;
    }
    const payload = json !== undefined ? JSON.stringify(json) : text!;
    res.writeHead(status, { 'content-type': json !== undefined ? 'application/json' : 'text/plain', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `X-Vault-Token`, else `Authorization: Bearer <token>` (Vault accepts both). */
function headerToken(headers: IncomingHttpHeaders): string | undefined {
  const direct = headerValue(headers['x-vault-token']);
  if (direct) return direct;
  const auth = headerValue(headers.authorization);
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

/** A validation failure in Vault's words, never the token itself. */
function describeJoseError(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'token is expired (exp)';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return err.claim === 'iss' ? 'invalid issuer (iss) claim' : `invalid ${err.claim} claim`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed || err instanceof joseErrors.JWKSNoMatchingKey) return 'failed to verify id token signature';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'unsupported signing algorithm';
  return 'malformed or unverifiable token';
}
