import { loadOrCreateEmbeddedKey } from '@igw/runtime';

/** The AES-256-GCM key encryption lives in @igw/runtime (shared with other services). */
export { KeyDecryptionError, KeyEncryption, parseKek } from '@igw/runtime';

/** Embedded mode's mandate KEK (MANDATE_KEK unset): DATA_DIR/keys/mandate-kek, owner-only. */
export function loadOrCreateEmbeddedKek(dataDir: string): Buffer {
  return loadOrCreateEmbeddedKey(dataDir, 'mandate-kek');
}
