import type { BrokerKind, BrokerMintRequest, BrokerRevocation, CredentialBroker, MintedCredential } from '../application/brokers';

/** What every JWT broker's options carry besides its endpoint. */
export interface JwtBrokerTiming {
  /** Bound for each call to the broker. */
  timeoutMs?: number;
  /** Injected clock (tests). */
  now?: () => Date;
}

/**
 * The frame the JWT brokers (Vault login, Conjur authn-jwt) share: one deadline per call, a
 * clock, an HTTP leg closed with the broker, and how a minted credential is completed.
 */
export abstract class JwtBroker<K extends BrokerKind, H extends { close(): Promise<void> }> implements CredentialBroker<K> {
  abstract readonly kind: K;
  protected readonly timeoutMs: number;
  protected readonly now: () => Date;
  protected readonly http: H;

  protected constructor(options: JwtBrokerTiming, defaultTimeoutMs: number, openHttp: (timeoutMs: number) => H) {
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.now = options.now ?? (() => new Date());
    this.http = openHttp(this.timeoutMs);
  }

  abstract mint(request: BrokerMintRequest): Promise<MintedCredential<K>>;
  abstract revoke(revocationHandle: string | null): Promise<BrokerRevocation>;

  async close(): Promise<void> {
    await this.http.close();
  }

  /** The credential of this broker's kind, flagged when it expires after the mandate does. */
  protected minted(request: BrokerMintRequest, credential: Omit<MintedCredential<K>, 'kind' | 'outlivesMandate'>): MintedCredential<K> {
    return { kind: this.kind, ...credential, outlivesMandate: credential.expiresAt.getTime() > request.expiresAt.getTime() };
  }
}
