import { BrokerError, type BrokerMintRequest, type BrokerRevocation, type MintedCredential } from '../../application/brokers';
import { BrokerHttp, throwUnlessBrokerOk } from '../broker-http';
import { JwtBroker, type JwtBrokerTiming } from '../jwt-broker.base';
import { conjurTokenExpiry, normaliseConjurToken } from './conjur-access-token';

export const DEFAULT_CONJUR_TIMEOUT_MS = 5000;

export interface ConjurAuthnJwtBrokerOptions extends JwtBrokerTiming {
  /** `CONJUR_URL`: the Conjur appliance URL, e.g. `https://conjur.internal` (Conjur Cloud: `https://<tenant>.secretsmgr.cyberark.cloud/api`). */
  url: string;
  /** `CONJUR_ACCOUNT`. */
  account: string;
  /** `CONJUR_AUTHN_JWT_SERVICE_ID`: the service id of the `authn-jwt` authenticator webservice. */
  serviceId: string;
  /**
   * `CONJUR_HOST_ID`: the full host identity (`host/jwt-apps/agents`), required when the
   * authenticator has no `token-app-property` (then Conjur takes the identity from the URL);
   * omit it when it has one (the identity then comes from a claim of the mandate).
   */
  hostId?: string;
  /** `CONJUR_TIMEOUT_MS`: bound for the authenticate call (default 5000). */
  timeoutMs?: number;
}

/**
 * The `conjur` credential broker (DESIGN 6.8) over Conjur's JWT Authenticator REST API:
 * `POST {CONJUR_URL}/authn-jwt/{service-id}/{account}[/{host-id}]/authenticate` with
 * `Content-Type: application/x-www-form-urlencoded`, `Accept-Encoding: base64` and body
 * `jwt=<mandate>`; 200 answers the host's access token, base64-encoded →
 * `{kind: "minted", conjur_token, expires_at}`. Conjur verifies the mandate against the
 * authenticator's `jwks-uri` (the gateway's JWKS), `issuer`, `audience` and the host's
 * annotations.
 *
 * Conjur access tokens last 8 minutes and Conjur has no API to revoke one: mint returns no
 * revocation handle and revoke answers `not_revocable`.
 *
 * 4xx (401 for a JWT Conjur does not accept, 400 for a bad request) → BrokerError `rejected`;
 * 5xx/429 and connection failures → `unavailable`; deadline → `timeout`.
 */
export class ConjurAuthnJwtBroker extends JwtBroker<'conjur', BrokerHttp> {
  readonly kind = 'conjur' as const;
  private readonly authenticateUrl: string;

  constructor(private readonly options: ConjurAuthnJwtBrokerOptions) {
    super(options, DEFAULT_CONJUR_TIMEOUT_MS, (timeoutMs) => new BrokerHttp('conjur', timeoutMs));
    const base = options.url.replace(/\/+$/, '');
    // Path parameters are URL-encoded: a host id `host/jwt-apps/myapp` becomes `host%2Fjwt-apps%2Fmyapp`.
    const host = options.hostId ? `/${encodeURIComponent(options.hostId)}` : '';
    this.authenticateUrl = `${base}/authn-jwt/${encodeURIComponent(options.serviceId)}/${encodeURIComponent(options.account)}${host}/authenticate`;
  }

  async mint(req: BrokerMintRequest): Promise<MintedCredential<'conjur'>> {
    const started = this.now();
    const { status, text } = await this.http.request(this.authenticateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-encoding': 'base64' },
      body: new URLSearchParams({ jwt: req.mandate }).toString(),
      timeoutMs: this.timeoutMs,
      what: 'authentication',
    });
    throwUnlessBrokerOk('conjur', 'authentication', status, text, [req.mandate]);
    const token = normaliseConjurToken(text);
    if (!token) throw new BrokerError('unavailable', 'conjur', 'conjur answered the authentication without an access token', { brokerStatus: status });
    const expiresAt = conjurTokenExpiry(token.json, started);
    return this.minted(req, {
      result: { kind: 'minted', conjur_token: token.token, expires_at: expiresAt.toISOString() },
      revocationHandle: null,
      record: {
        kind: 'conjur',
        account: this.options.account,
        service_id: this.options.serviceId,
        host_id: this.options.hostId ?? null,
        expires_at: expiresAt.toISOString(),
      },
      expiresAt,
    });
  }

  async revoke(_revocationHandle: string | null): Promise<BrokerRevocation> {
    // Conjur access tokens cannot be revoked; they expire 8 minutes after issue.
    return { kind: 'conjur', result: 'not_revocable' };
  }
}
