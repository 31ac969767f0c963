import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreateSecretFile } from './secret-file';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals secrets at rest (private keys, broker revocation handles, webhook signing secrets) with
 * AES-256-GCM under a 32-byte key-encryption key (KEK). The additional data binds a ciphertext to
 * what it is for (e.g. a key's kid), so one row's sealed value cannot be swapped into another row.
 * Neither the KEK nor a plaintext ever reaches a log or an error message.
 *
 * Sealed form: base64url(iv(12) | tag(16) | ciphertext).
 */
export class KeyEncryption {
  /** Names the KEK without revealing it (stored with each sealed value, for KEK rotation). */
  readonly kekId: string;

  constructor(private readonly kek: Buffer) {
    if (kek.length !== 32) throw new Error('the key-encryption key must be 32 bytes');
    this.kekId = createHash('sha256').update('igw-kek-id').update(kek).digest('base64url').slice(0, 16);
  }

  seal(plain: Buffer, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.kek, iv);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plaintext; throws KeyDecryptionError for a wrong KEK, wrong `aad` or a tampered value. */
  open(sealed: string, aad: string): Buffer {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES + 1) throw new KeyDecryptionError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.kek, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new KeyDecryptionError();
    }
  }
}

export class KeyDecryptionError extends Error {
  constructor() {
    super('a sealed key could not be opened with the configured key-encryption key');
  }
}

/** A KEK from config: 32 bytes as base64 / base64url (43–44 chars) or hex (64 chars). null when it is not. */
export function parseKek(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

/**
 * Embedded mode's 32-byte key named `name`: generated once as `DATA_DIR/keys/<name>` (base64url),
 * owner-only (see readOrCreateSecretFile), and read back on every start.
 */
export function loadOrCreateEmbeddedKey(dataDir: string, name: string): Buffer {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`invalid embedded key name: ${JSON.stringify(name)}`);
  const path = join(dataDir, 'keys', name);
  const key = parseKek(readOrCreateSecretFile(path, () => randomBytes(32).toString('base64url')));
  if (!key) throw new Error(`${path} does not hold a 32-byte key`);
  return key;
}
