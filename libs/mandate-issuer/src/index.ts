export * from './mandate-issuer.module';
export { mandateIssuerSettings, type MandateIssuerSettings } from './mandate-issuer.options';
export { MandateIssuerConfig } from './mandate-issuer.config';
export { brokerProviders, BrokerConfig, withBrokerSettings, type BrokerSettings } from './broker.config';
export { MANDATE_ISSUER_MIGRATIONS, MANDATE_ISSUER_SCHEMA } from './adapters/prisma/mandate-issuer-prisma.client';
export { KeyEncryption, loadOrCreateEmbeddedKek, parseKek } from './adapters/crypto/key-encryption';
export { KeyRing } from './application/signing/key-ring';
export { DEFAULT_KEY_SCHEDULE } from './domain/signing-key-schedule';
