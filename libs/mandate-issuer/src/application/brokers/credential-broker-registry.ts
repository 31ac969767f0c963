import { BrokerError } from './broker.error';
import {
  isBrokerKind,
  type BrokerKind,
  type BrokerMintRequest,
  type BrokerRevocation,
  type CredentialBroker,
  type CredentialBrokers,
  type MintedCredential,
} from './credential-broker.port';

/**
 * CREDENTIAL_BROKERS over the brokers configured on this gateway (none, vault, conjur or
 * both). Asking for a kind that is not configured throws BrokerError `misconfigured`; a null
 * revocation handle is `not_revocable` without asking anyone.
 */
export class CredentialBrokerRegistry implements CredentialBrokers {
  private readonly byKind = new Map<BrokerKind, CredentialBroker>();

  constructor(brokers: readonly CredentialBroker[]) {
    for (const broker of brokers) {
      if (this.byKind.has(broker.kind)) throw new Error(`two credential brokers of kind ${broker.kind}`);
      this.byKind.set(broker.kind, broker);
    }
  }

  configuredKinds(): BrokerKind[] {
    return [...this.byKind.keys()];
  }

  isConfigured(kind: string): kind is BrokerKind {
    return isBrokerKind(kind) && this.byKind.has(kind);
  }

  async mint<K extends BrokerKind>(kind: K, request: BrokerMintRequest): Promise<MintedCredential<K>> {
    const minted = await this.broker(kind).mint(request);
    return minted as MintedCredential<K>;
  }

  async revoke(kind: BrokerKind, revocationHandle: string | null): Promise<BrokerRevocation> {
    if (revocationHandle === null) return { kind, result: 'not_revocable' };
    return this.broker(kind).revoke(revocationHandle);
  }

  /** Closes every broker's connection pool (Nest calls it on shutdown). */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.byKind.values()].map((b) => b.close?.()));
  }

  private broker(kind: string): CredentialBroker {
    const broker = isBrokerKind(kind) ? this.byKind.get(kind) : undefined;
    if (!broker) {
      // `kind` comes from a request: quote it only when it is one we know.
      const name = isBrokerKind(kind) ? kind : 'unknown';
      throw new BrokerError(
        'misconfigured',
        name,
        `credential broker ${isBrokerKind(kind) ? `"${kind}" is not configured on this gateway` : 'kind is not supported'}`,
      );
    }
    return broker;
  }
}
