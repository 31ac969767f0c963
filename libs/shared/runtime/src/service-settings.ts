import type { BaseConfig } from '@igw/config';
import { loadOrCreateEmbeddedKey, parseKek } from './key-encryption';
import { StartupError } from './service-infra';

/**
 * A 32-byte key-encryption key from setting `name`: required in distributed mode (shared by the
 * replicas); embedded mode without it keeps one under DATA_DIR/keys/<embeddedName>.
 */
export function resolveKek(name: string, value: string | undefined, config: Pick<BaseConfig, 'GATEWAY_MODE' | 'DATA_DIR'>, embeddedName: string): Buffer {
  if (value === undefined) {
    if (config.GATEWAY_MODE !== 'embedded') throw new StartupError(`${name} must be set in distributed mode`);
    try {
      return loadOrCreateEmbeddedKey(config.DATA_DIR, embeddedName);
    } catch (err) {
      throw new StartupError((err as Error).message);
    }
  }
  const kek = parseKek(value);
  if (!kek) throw new StartupError(`${name} must be 32 bytes as base64 or hex`);
  return kek;
}
