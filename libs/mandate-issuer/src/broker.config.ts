import type { Provider } from '@nestjs/common';
import { IsOptional, IsString, Matches, MinLength, ValidateIf } from 'class-validator';
import { IntSetting } from '@igw/config';
import { ConjurAuthnJwtBroker, DEFAULT_CONJUR_TIMEOUT_MS } from './adapters/conjur';
import { DEFAULT_VAULT_JWT_MOUNT, DEFAULT_VAULT_TIMEOUT_MS, VaultJwtBroker } from './adapters/vault';
import { CREDENTIAL_BROKERS, CredentialBrokerRegistry, type CredentialBroker } from './application/brokers';

const URL_RULE = /^https?:\/\/[^\s/]+(\/\S*)?$/;
// Slash-separated segments of [A-Za-z0-9_.-], none of them `.` or `..`.
const PATH_RULE = /^(?!(?:.*\/)?\.{1,2}(?:\/|$))[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*\/?$/;

const conjurOn = (c: BrokerSettings) =>
  c.CONJUR_URL !== undefined || c.CONJUR_ACCOUNT !== undefined || c.CONJUR_AUTHN_JWT_SERVICE_ID !== undefined || c.CONJUR_HOST_ID !== undefined;

/** The broker settings (DESIGN 6.8 "Brokers"). A broker kind is configured when its URL is set. */
export interface BrokerSettings {
  VAULT_ADDR?: string;
  VAULT_JWT_MOUNT: string;
  VAULT_NAMESPACE?: string;
  VAULT_TIMEOUT_MS: number;
  CONJUR_URL?: string;
  CONJUR_ACCOUNT?: string;
  CONJUR_AUTHN_JWT_SERVICE_ID?: string;
  CONJUR_HOST_ID?: string;
  CONJUR_TIMEOUT_MS: number;
}

// A mixin's constructor must take `any[]` (TypeScript rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor = new (...args: any[]) => object;

/**
 * Adds the credential-broker settings to a config class, e.g.
 * `class MandateIssuerConfig extends withBrokerSettings(BaseConfig) { … }`. Every setting is
 * optional: without VAULT_ADDR there is no `vault` broker, without CONJUR_URL no `conjur` broker.
 */
export function withBrokerSettings<TBase extends Constructor>(Base: TBase) {
  class WithBrokerSettings extends Base implements BrokerSettings {
    /** Vault's address, e.g. `https://vault.internal:8200`. Unset: no `vault` broker. */
    @IsOptional()
    @Matches(URL_RULE, { message: 'VAULT_ADDR must be an http(s):// URL such as https://vault.internal:8200' })
    VAULT_ADDR?: string;

    /** Mount path of Vault's JWT auth method (login at `/v1/auth/{mount}/login`). */
    @Matches(PATH_RULE, { message: 'VAULT_JWT_MOUNT must be a Vault mount path such as jwt or team/jwt' })
    VAULT_JWT_MOUNT: string = DEFAULT_VAULT_JWT_MOUNT;

    /** Vault Enterprise namespace (`X-Vault-Namespace`), e.g. `ns1/ns2`. */
    @IsOptional()
    @Matches(PATH_RULE, { message: 'VAULT_NAMESPACE must be a Vault namespace path such as ns1 or ns1/ns2' })
    VAULT_NAMESPACE?: string;

    /** Timeout of one request to Vault. */
    @IntSetting('VAULT_TIMEOUT_MS', 50, 60000)
    VAULT_TIMEOUT_MS: number = DEFAULT_VAULT_TIMEOUT_MS;

    /** Conjur appliance URL. Unset (and no other CONJUR_* setting): no `conjur` broker. */
    @ValidateIf(conjurOn)
    @Matches(URL_RULE, { message: 'CONJUR_URL must be an http(s):// URL (required when any CONJUR_* setting is set)' })
    CONJUR_URL?: string;

    /** Conjur account the `conjur` broker authenticates in. */
    @ValidateIf(conjurOn)
    @IsString({ message: 'CONJUR_ACCOUNT must be set with CONJUR_URL' })
    @MinLength(1, { message: 'CONJUR_ACCOUNT must be set with CONJUR_URL' })
    CONJUR_ACCOUNT?: string;

    /** Service id of the `authn-jwt` authenticator (`/authn-jwt/{service-id}/…`). */
    @ValidateIf(conjurOn)
    @IsString({ message: 'CONJUR_AUTHN_JWT_SERVICE_ID must be set with CONJUR_URL' })
    @MinLength(1, { message: 'CONJUR_AUTHN_JWT_SERVICE_ID must be set with CONJUR_URL' })
    CONJUR_AUTHN_JWT_SERVICE_ID?: string;

    /** Full host identity (`host/jwt-apps/agents`) when the authenticator has no `token-app-property`. */
    @IsOptional()
    @Matches(/^\S+$/, { message: 'CONJUR_HOST_ID must be a Conjur host identity such as host/jwt-apps/agents' })
    CONJUR_HOST_ID?: string;

    /** Timeout of one request to Conjur. */
    @IntSetting('CONJUR_TIMEOUT_MS', 50, 60000)
    CONJUR_TIMEOUT_MS: number = DEFAULT_CONJUR_TIMEOUT_MS;
  }
  return WithBrokerSettings;
}

/** The broker settings on their own: `loadConfigOrExit(BrokerConfig)` or `parseConfig(BrokerConfig, env)`. */
export class BrokerConfig extends withBrokerSettings(class {}) {}

/**
 * Nest providers for the credential brokers: CREDENTIAL_BROKERS, a registry holding the
 * `vault` broker when VAULT_ADDR is set and the `conjur` broker when CONJUR_URL is set (no
 * broker at all is fine: every kind is then "not configured"). Their connection pools close on
 * module destroy.
 */
export function brokerProviders(config: Partial<BrokerSettings>): Provider[] {
  return [
    {
      provide: CREDENTIAL_BROKERS,
      useFactory: () => {
        const brokers: CredentialBroker[] = [];
        if (config.VAULT_ADDR) {
          brokers.push(
            new VaultJwtBroker({
              addr: config.VAULT_ADDR,
              mount: config.VAULT_JWT_MOUNT ?? DEFAULT_VAULT_JWT_MOUNT,
              namespace: config.VAULT_NAMESPACE,
              timeoutMs: config.VAULT_TIMEOUT_MS ?? DEFAULT_VAULT_TIMEOUT_MS,
            }),
          );
        }
        if (config.CONJUR_URL && config.CONJUR_ACCOUNT && config.CONJUR_AUTHN_JWT_SERVICE_ID) {
          brokers.push(
            new ConjurAuthnJwtBroker({
              url: config.CONJUR_URL,
              account: config.CONJUR_ACCOUNT,
              serviceId: config.CONJUR_AUTHN_JWT_SERVICE_ID,
              hostId: config.CONJUR_HOST_ID,
              timeoutMs: config.CONJUR_TIMEOUT_MS ?? DEFAULT_CONJUR_TIMEOUT_MS,
            }),
          );
        }
        return new CredentialBrokerRegistry(brokers);
      },
    },
  ];
}
