import { BrokerError } from '../brokers/broker.error';
import {
  isBrokerKind,
  type BrokerKind,
  type BrokerMintRequest,
  type BrokerRevocation,
  type BrokerRevocationResult,
  type CredentialBrokers,
  type MintedCredential,
} from '../brokers/credential-broker.port';

/**
 * Test double of CREDENTIAL_BROKERS, scriptable: every mint succeeds with a fresh fake
 * credential unless `failNextMint` queued a BrokerError; revocations answer `revokeResult`
 * unless `failNextRevoke` queued one. Like the real registry, an unconfigured kind is a
 * BrokerError `misconfigured` and a null handle is `not_revocable` without reaching a broker.
 * Every call is recorded, and every credential minted is kept (with its secrets) for assertions.
 */
export class FakeCredentialBrokers implements CredentialBrokers {
  readonly mints: { kind: BrokerKind; request: BrokerMintRequest }[] = [];
  /** Every `revoke` call of the port, null handles included. */
  readonly revocations: { kind: BrokerKind; handle: string | null }[] = [];
  /** What each successful mint returned. */
  readonly minted: MintedCredential[] = [];
  /** What a revocation that reaches the broker answers. */
  revokeResult: BrokerRevocationResult = 'revoked';
  private readonly mintFailures: (BrokerError | undefined)[] = [];
  private readonly revokeFailures: (BrokerError | undefined)[] = [];

  constructor(private readonly kinds: readonly BrokerKind[] = ['vault', 'conjur']) {}

  configuredKinds(): BrokerKind[] {
    return [...this.kinds];
  }

  isConfigured(kind: string): kind is BrokerKind {
    return isBrokerKind(kind) && this.kinds.includes(kind);
  }

  /** The next mint throws `error` (default: the broker rejected the login, HTTP 400). */
  failNextMint(error?: BrokerError): this {
    this.mintFailures.push(error);
    return this;
  }

  /** The next revocation that reaches a broker throws `error` (default: the broker is unavailable, HTTP 503). */
  failNextRevoke(error?: BrokerError): this {
    this.revokeFailures.push(error);
    return this;
  }

  async mint<K extends BrokerKind>(kind: K, request: BrokerMintRequest): Promise<MintedCredential<K>> {
    this.mints.push({ kind, request: { ...request, options: { ...request.options } } });
    if (!this.isConfigured(kind)) throw new BrokerError('misconfigured', kind, `credential broker "${kind}" is not configured on this gateway`);
    if (this.mintFailures.length > 0) {
      throw this.mintFailures.shift() ?? new BrokerError('rejected', kind, `${kind} rejected the login (HTTP 400)`, { brokerStatus: 400 });
    }
    const minted = (kind === 'vault' ? this.vault(request) : this.conjur(request)) as MintedCredential<K>;
    this.minted.push(minted);
    return structuredClone(minted);
  }

  async revoke(kind: BrokerKind, revocationHandle: string | null): Promise<BrokerRevocation> {
    this.revocations.push({ kind, handle: revocationHandle });
    if (revocationHandle === null) return { kind, result: 'not_revocable' };
    if (!this.isConfigured(kind)) throw new BrokerError('misconfigured', kind, `credential broker "${kind}" is not configured on this gateway`);
    if (this.revokeFailures.length > 0) {
      throw this.revokeFailures.shift() ?? new BrokerError('unavailable', kind, `${kind} is unavailable (HTTP 503)`, { brokerStatus: 503 });
    }
    return { kind, result: this.revokeResult };
  }

  /** Calls that reached a broker (a handle was given). */
  brokerRevocations(): { kind: BrokerKind; handle: string | null }[] {
    return this.revocations.filter((r) => r.handle !== null);
  }

  private vault(request: BrokerMintRequest): MintedCredential<'vault'> {
    const n = this.minted.length + 1;
    const token = `hvs.fake-vault-token-${n}-secret`;
    const leaseDuration = 300;
    return {
      kind: 'vault',
      result: { kind: 'minted', vault_token: token, lease_duration: leaseDuration },
      revocationHandle: JSON.stringify({ v: 1, token }),
      record: {
        kind: 'vault',
        vault_role: request.options.vault_role ?? null,
        namespace: null,
        accessor: `accessor-${n}`,
        token_type: 'service',
        lease_duration: leaseDuration,
        expires_at: request.expiresAt.toISOString(),
      },
      expiresAt: request.expiresAt,
      outlivesMandate: false,
    };
  }

  private conjur(request: BrokerMintRequest): MintedCredential<'conjur'> {
    const n = this.minted.length + 1;
    return {
      kind: 'conjur',
      result: {
        kind: 'minted',
        conjur_token: Buffer.from(`{"protected":"fake-conjur-token-${n}"}`).toString('base64'),
        expires_at: request.expiresAt.toISOString(),
      },
      revocationHandle: null,
      record: { kind: 'conjur', account: 'acme', service_id: 'igw', host_id: null, expires_at: request.expiresAt.toISOString() },
      expiresAt: request.expiresAt,
      outlivesMandate: false,
    };
  }
}
