import { BaseConfig, ConfigError, parseConfig } from '@igw/config';
import { BrokerConfig, brokerProviders, withBrokerSettings } from './broker.config';
import { BrokerError, CREDENTIAL_BROKERS, type CredentialBrokers } from './application/brokers';

describe('BrokerConfig', () => {
  it('needs nothing: no broker is configured by default', () => {
    const config = parseConfig(BrokerConfig, {});
    expect(config).toMatchObject({ VAULT_JWT_MOUNT: 'jwt', VAULT_TIMEOUT_MS: 5000, CONJUR_TIMEOUT_MS: 5000 });
    expect(config.VAULT_ADDR).toBeUndefined();
    expect(config.CONJUR_URL).toBeUndefined();
  });

  it('reads every setting', () => {
    const config = parseConfig(BrokerConfig, {
      VAULT_ADDR: 'https://vault.internal:8200',
      VAULT_JWT_MOUNT: 'team/jwt',
      VAULT_NAMESPACE: 'ns1/ns2',
      VAULT_TIMEOUT_MS: '1500',
      CONJUR_URL: 'https://tenant.secretsmgr.cyberark.cloud/api',
      CONJUR_ACCOUNT: 'conjur',
      CONJUR_AUTHN_JWT_SERVICE_ID: 'gateway',
      CONJUR_HOST_ID: 'host/data/agents',
      CONJUR_TIMEOUT_MS: '2500',
    });
    expect(config).toMatchObject({
      VAULT_JWT_MOUNT: 'team/jwt',
      VAULT_NAMESPACE: 'ns1/ns2',
      VAULT_TIMEOUT_MS: 1500,
      CONJUR_HOST_ID: 'host/data/agents',
      CONJUR_TIMEOUT_MS: 2500,
    });
  });

  it.each([
    [{ VAULT_ADDR: 'vault:8200' }, 'VAULT_ADDR must be an http(s):// URL'],
    [{ VAULT_JWT_MOUNT: '../sys' }, 'VAULT_JWT_MOUNT must be a Vault mount path'],
    [{ VAULT_NAMESPACE: 'a b' }, 'VAULT_NAMESPACE must be a Vault namespace path'],
    [{ VAULT_TIMEOUT_MS: '10' }, 'VAULT_TIMEOUT_MS must be an integer between 50 and 60000'],
    [{ CONJUR_URL: 'https://conjur', CONJUR_AUTHN_JWT_SERVICE_ID: 'gw' }, 'CONJUR_ACCOUNT must be set with CONJUR_URL'],
    [{ CONJUR_URL: 'https://conjur', CONJUR_ACCOUNT: 'myorg' }, 'CONJUR_AUTHN_JWT_SERVICE_ID must be set with CONJUR_URL'],
    [{ CONJUR_ACCOUNT: 'myorg', CONJUR_AUTHN_JWT_SERVICE_ID: 'gw' }, 'CONJUR_URL must be an http(s):// URL'],
    [{ CONJUR_HOST_ID: 'host/a b' }, 'CONJUR_HOST_ID must be a Conjur host identity'],
  ])('rejects %j', (env, message) => {
    expect(() => parseConfig(BrokerConfig, env as Record<string, string>)).toThrow(ConfigError);
    expect(() => parseConfig(BrokerConfig, env as Record<string, string>)).toThrow(message);
  });

  it('mixes into another config class', () => {
    class IssuerConfig extends withBrokerSettings(BaseConfig) {}
    const config = parseConfig(IssuerConfig, { PORT: '9000', VAULT_ADDR: 'http://127.0.0.1:8200' });
    expect(config).toMatchObject({ PORT: 9000, VAULT_ADDR: 'http://127.0.0.1:8200', VAULT_JWT_MOUNT: 'jwt', GATEWAY_MODE: 'embedded' });
    expect(config.kafkaBrokers).toEqual([]);
    expect(() => parseConfig(IssuerConfig, { VAULT_TIMEOUT_MS: 'x' })).toThrow('VAULT_TIMEOUT_MS');
  });
});

describe('brokerProviders', () => {
  function registry(config: Parameters<typeof brokerProviders>[0]): CredentialBrokers & { onModuleDestroy(): Promise<void> } {
    const [provider] = brokerProviders(config);
    expect(provider).toMatchObject({ provide: CREDENTIAL_BROKERS });
    return (provider as { useFactory: () => CredentialBrokers & { onModuleDestroy(): Promise<void> } }).useFactory();
  }

  it('configures a broker per URL setting', async () => {
    const none = registry({});
    expect(none.configuredKinds()).toEqual([]);
    const both = registry(
      parseConfig(BrokerConfig, { VAULT_ADDR: 'http://127.0.0.1:1', CONJUR_URL: 'http://127.0.0.1:1', CONJUR_ACCOUNT: 'a', CONJUR_AUTHN_JWT_SERVICE_ID: 's' }),
    );
    expect(both.configuredKinds()).toEqual(['vault', 'conjur']);
    await Promise.all([none.onModuleDestroy(), both.onModuleDestroy()]);
  });

  it('answers misconfigured for a kind without settings', async () => {
    const vaultOnly = registry({ VAULT_ADDR: 'http://127.0.0.1:1' });
    const err = await vaultOnly.mint('conjur', { mandate: 'm', expiresAt: new Date(), options: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect(err).toMatchObject({ failure: 'misconfigured', code: 'broker_failed' });
    await vaultOnly.onModuleDestroy();
  });
});
