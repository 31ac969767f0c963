import { throwUnlessBrokerOk } from '../broker-http';
import { BrokerError, type BrokerMintRequest, type BrokerRevocation, type MintedCredential } from '../../application/brokers';
import { JwtBroker, type JwtBrokerTiming } from '../jwt-broker.base';
import { decodeVaultHandle, encodeVaultHandle, parseVaultLogin, vaultLoginPath } from './vault-api';
import { VaultHttp, vaultErrors, type VaultAnswer } from './vault-http';

export const DEFAULT_VAULT_JWT_MOUNT = 'jwt';
export const DEFAULT_VAULT_TIMEOUT_MS = 5000;

export interface VaultJwtBrokerOptions extends JwtBrokerTiming {
  /** `VAULT_ADDR`, e.g. `https://vault.internal:8200` (the broker appends `/v1/...`). */
  addr: string;
  /** `VAULT_JWT_MOUNT`: where the JWT auth method is mounted (default `jwt`). */
  mount?: string;
  /** `VAULT_NAMESPACE` (Vault Enterprise), sent as `X-Vault-Namespace`. */
  namespace?: string;
  /** `VAULT_TIMEOUT_MS`: bound for each Vault call (default 5000). */
  timeoutMs?: number;
}

/**
 * The `vault` credential broker (DESIGN 6.8) over Vault's HTTP API:
 *
 * - mint: `POST {VAULT_ADDR}/v1/auth/{mount}/login {role: vault_role, jwt: mandate}` at the
 *   JWT/OIDC auth method (Vault verifies the mandate against the gateway's JWKS, `bound_issuer`
 *   and the role's `bound_audiences` / `bound_claims`) → `auth.client_token`,
 *   `auth.lease_duration`, `auth.accessor` → `{kind: "minted", vault_token, lease_duration}`.
 * - revoke: `POST /v1/auth/token/revoke-self` with the minted token as `X-Vault-Token`
 *   (204). Revoking "self" needs no other Vault credential: the gateway holds no standing Vault
 *   token (revoke / revoke-accessor would need one with `update` on those paths), and the
 *   `default` policy grants `auth/token/revoke-self`. Roles must therefore keep the default
 *   policy (not set `token_no_default_policy`). Vault answers 403 for a token it no longer
 *   knows (expired, already revoked) → `already_invalid`. Batch tokens (role
 *   `token_type=batch`) cannot be revoked: no handle, `not_revocable`.
 *
 * HTTP 4xx → BrokerError `rejected` (Vault's `errors` go, redacted, to `detail`); 5xx/429
 * (sealed, standby, rate limited) and connection failures → `unavailable`; deadline →
 * `timeout`.
 */
export class VaultJwtBroker extends JwtBroker<'vault', VaultHttp> {
  readonly kind = 'vault' as const;
  private readonly loginPath: string;
  private readonly namespace: string | null;

  constructor(options: VaultJwtBrokerOptions) {
    super(options, DEFAULT_VAULT_TIMEOUT_MS, (timeoutMs) => new VaultHttp(options.addr, timeoutMs));
    this.loginPath = vaultLoginPath(options.mount ?? DEFAULT_VAULT_JWT_MOUNT);
    this.namespace = options.namespace?.replace(/^\/+|\/+$/g, '') || null;
  }

  async mint(request: BrokerMintRequest): Promise<MintedCredential<'vault'>> {
    const role = request.options.vault_role;
    const started = this.now();
    const answer = await this.http.call('POST', this.loginPath, {
      body: role ? { role, jwt: request.mandate } : { jwt: request.mandate },
      namespace: this.namespace ?? undefined,
      timeoutMs: this.timeoutMs,
      what: 'login',
    });
    this.throwUnlessOk(answer, 'login', [request.mandate]);
    const login = parseVaultLogin(answer.body);
    if (!login) {
      // A 2xx without a usable token (e.g. a login MFA requirement): nothing was handed out.
      throw new BrokerError('unavailable', 'vault', 'vault answered the login without auth.client_token and auth.lease_duration', {
        brokerStatus: answer.status,
      });
    }
    // lease_duration 0 means the token has no TTL: it never expires on its own.
    const expiresAt = login.leaseDuration > 0 ? new Date(started.getTime() + login.leaseDuration * 1000) : new Date(8.64e15);
    const revocable = login.tokenType === 'service';
    return this.minted(request, {
      result: { kind: 'minted', vault_token: login.clientToken, lease_duration: login.leaseDuration },
      revocationHandle: revocable ? encodeVaultHandle({ token: login.clientToken, accessor: login.accessor, namespace: this.namespace }) : null,
      record: {
        kind: 'vault',
        vault_role: role ?? null,
        namespace: this.namespace,
        accessor: login.accessor || null,
        token_type: login.tokenType,
        lease_duration: login.leaseDuration,
        expires_at: expiresAt.toISOString(),
      },
      expiresAt,
    });
  }

  async revoke(revocationHandle: string | null): Promise<BrokerRevocation> {
    if (revocationHandle === null) return { kind: 'vault', result: 'not_revocable' };
    const handle = decodeVaultHandle(revocationHandle);
    if (!handle) throw new BrokerError('misconfigured', 'vault', 'the stored revocation handle is not a vault handle');
    const answer = await this.http.call('POST', '/auth/token/revoke-self', {
      token: handle.token,
      namespace: handle.namespace ?? undefined,
      timeoutMs: this.timeoutMs,
      what: 'token revocation',
    });
    // Vault answers 403 "permission denied" to a token it does not know (any more).
    if (answer.status === 403) return { kind: 'vault', result: 'already_invalid' };
    this.throwUnlessOk(answer, 'token revocation', [handle.token]);
    return { kind: 'vault', result: 'revoked' };
  }

  private throwUnlessOk(answer: VaultAnswer, what: string, secrets: string[]): void {
    throwUnlessBrokerOk('vault', what, answer.status, vaultErrors(answer.body), secrets);
  }
}
