import { AppError } from '@igw/kernel';
import { BrokerError, redactBrokerText } from './broker.error';
import { CredentialBrokerRegistry } from './credential-broker-registry';
import type { BrokerMintRequest, CredentialBroker, MintedCredential } from './credential-broker.port';

const request: BrokerMintRequest = {
  mandate: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln',
  expiresAt: new Date('2030-01-01T00:05:00Z'),
  options: { vault_role: 'agent' },
};

function fakeVault(): CredentialBroker<'vault'> & { closed: boolean; revoked: string[] } {
  const broker = {
    kind: 'vault' as const,
    closed: false,
    revoked: [] as string[],
    async mint(): Promise<MintedCredential<'vault'>> {
      const expiresAt = new Date('2030-01-01T00:05:00Z');
      return {
        kind: 'vault',
        result: { kind: 'minted', vault_token: 'hvs.secret-token-value', lease_duration: 300 },
        revocationHandle: 'handle',
        record: {
          kind: 'vault',
          vault_role: 'agent',
          namespace: null,
          accessor: 'acc',
          token_type: 'service',
          lease_duration: 300,
          expires_at: expiresAt.toISOString(),
        },
        expiresAt,
        outlivesMandate: false,
      };
    },
    async revoke(handle: string | null) {
      broker.revoked.push(String(handle));
      return { kind: 'vault' as const, result: 'revoked' as const };
    },
    async close() {
      broker.closed = true;
    },
  };
  return broker;
}

describe('CredentialBrokerRegistry', () => {
  it('mints and revokes with the broker of the kind asked for', async () => {
    const vault = fakeVault();
    const registry = new CredentialBrokerRegistry([vault]);
    const minted = await registry.mint('vault', request);
    expect(minted.result).toEqual({ kind: 'minted', vault_token: 'hvs.secret-token-value', lease_duration: 300 });
    await expect(registry.revoke('vault', 'handle')).resolves.toEqual({ kind: 'vault', result: 'revoked' });
    expect(vault.revoked).toEqual(['handle']);
  });

  it('knows which kinds are configured', () => {
    const registry = new CredentialBrokerRegistry([fakeVault()]);
    expect(registry.configuredKinds()).toEqual(['vault']);
    expect(registry.isConfigured('vault')).toBe(true);
    expect(registry.isConfigured('conjur')).toBe(false);
    expect(registry.isConfigured('aws')).toBe(false);
    expect(new CredentialBrokerRegistry([]).configuredKinds()).toEqual([]);
  });

  it('throws BrokerError misconfigured (a 502 broker_failed AppError) for a kind that is not configured', async () => {
    const registry = new CredentialBrokerRegistry([fakeVault()]);
    const err = await registry.mint('conjur', request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ failure: 'misconfigured', broker: 'conjur', kind: 'bad_gateway', code: 'broker_failed', extra: {} });
    expect((err as Error).message).toBe('credential broker "conjur" is not configured on this gateway');
  });

  it('does not echo an unknown kind', async () => {
    const registry = new CredentialBrokerRegistry([]);
    const err = (await registry.mint('<script>' as never, request).catch((e: unknown) => e)) as BrokerError;
    expect(err).toMatchObject({ failure: 'misconfigured', broker: 'unknown' });
    expect(err.message).not.toContain('<script>');
  });

  it('answers not_revocable for a null handle without asking any broker (even an unconfigured kind)', async () => {
    const vault = fakeVault();
    const registry = new CredentialBrokerRegistry([vault]);
    await expect(registry.revoke('vault', null)).resolves.toEqual({ kind: 'vault', result: 'not_revocable' });
    await expect(registry.revoke('conjur', null)).resolves.toEqual({ kind: 'conjur', result: 'not_revocable' });
    expect(vault.revoked).toEqual([]);
    await expect(registry.revoke('conjur', 'handle')).rejects.toMatchObject({ failure: 'misconfigured' });
  });

  it('refuses two brokers of one kind and closes every broker on module destroy', async () => {
    expect(() => new CredentialBrokerRegistry([fakeVault(), fakeVault()])).toThrow('two credential brokers of kind vault');
    const vault = fakeVault();
    await new CredentialBrokerRegistry([vault]).onModuleDestroy();
    expect(vault.closed).toBe(true);
  });
});

describe('BrokerError', () => {
  it('keeps the broker status and detail out of the response extras', () => {
    const err = new BrokerError('rejected', 'vault', 'vault rejected the login (HTTP 400)', { brokerStatus: 400, detail: 'role "x" could not be found' });
    expect(err).toMatchObject({ name: 'BrokerError', failure: 'rejected', brokerStatus: 400, detail: 'role "x" could not be found', extra: {} });
  });
});

describe('redactBrokerText', () => {
  it('removes the given secrets, JWT-shaped and Vault-token-shaped strings', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJl';
    expect(redactBrokerText(`bad jwt ${jwt} end`)).toBe('bad jwt [redacted] end');
    expect(redactBrokerText('token hvs.CAESIJabcdefghijklmnop and s.abcdefghijkl and hvb.AAAAQabcdefghij')).toBe(
      'token [redacted] and [redacted] and [redacted]',
    );
    expect(redactBrokerText('my secret is opaque-secret-42!', ['opaque-secret-42'])).toBe('my secret is [redacted]!');
  });

  it('drops control characters and caps the length', () => {
    expect(redactBrokerText('line1\nline2\u0000')).toBe('line1 line2');
    const long = redactBrokerText('x'.repeat(1000));
    expect(long.length).toBe(300);
    expect(long.endsWith('…')).toBe(true);
  });

  it('leaves ordinary Vault messages alone', () => {
    const text = 'error validating claims: invalid audience (aud) claim: audience claim does not match any expected audience';
    expect(redactBrokerText(text)).toBe(text);
  });
});
