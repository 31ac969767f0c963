import { resolveKek } from '@igw/runtime';
import { brokerProviders } from './broker.config';
import { DEFAULT_KEY_SCHEDULE } from './domain/signing-key-schedule';
import type { MandateIssuerConfig } from './mandate-issuer.config';
import type { MandateIssuerModuleOptions } from './mandate-issuer.module';

export type MandateIssuerSettings = Pick<MandateIssuerModuleOptions, 'kek' | 'brokers' | 'keyRing'>;

/** The module options that come from configuration: built here once for the embedded and the service root. */
export function mandateIssuerSettings(config: MandateIssuerConfig): MandateIssuerSettings {
  const rotationDays = config.MANDATE_KEY_ROTATION_DAYS;
  return {
    kek: resolveKek('MANDATE_KEK', config.MANDATE_KEK, config, 'mandate-kek'),
    brokers: brokerProviders(config),
    ...(rotationDays ? { keyRing: { policy: { ...DEFAULT_KEY_SCHEDULE, rotationIntervalSeconds: rotationDays * 86400 } } } : {}),
  };
}
