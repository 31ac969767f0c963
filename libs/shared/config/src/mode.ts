import { ConfigError } from './load-config';
import type { BaseConfig } from './base.config';

/** A config known to be in distributed mode, with the named settings present. */
export type DistributedConfig<T extends BaseConfig, K extends keyof T = never> = T & { GATEWAY_MODE: 'distributed' } & { [P in K]-?: NonNullable<T[P]> };

/**
 * The root of a distributed service: refuses embedded mode and any of `keys` unset, so the wiring
 * reads them without non-null assertions. The class validators already require them in
 * distributed mode; this makes the type say so.
 */
export function requireDistributed<T extends BaseConfig, K extends keyof T = never>(config: T, app: string, keys: readonly K[] = []): DistributedConfig<T, K> {
  if (config.GATEWAY_MODE !== 'distributed') throw new ConfigError(`the ${app} app runs in distributed mode; \`npm start\` runs embedded mode`);
  const missing = keys.filter((k) => config[k] === undefined || config[k] === null);
  if (missing.length > 0) throw new ConfigError(`${missing.join(', ')} must be set in distributed mode`);
  return config as DistributedConfig<T, K>;
}
