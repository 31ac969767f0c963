import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateGrantKey, type GrantKeyInput } from '../jose/jose-grant.service';

/** Where embedded mode keeps the grant key, under DATA_DIR. */
export const grantKeyPath = (dataDir: string) => join(dataDir, 'keys', 'grant-signing-key.jwk');

/**
 * Embedded mode's grant key: generated on first start and kept owner-only under DATA_DIR, so
 * grants stay verifiable across restarts. A key file others can read is refused (the process
 * would otherwise sign with a key it cannot vouch for).
 */
export function loadOrCreateEmbeddedGrantKey(dataDir: string): GrantKeyInput {
  const path = grantKeyPath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`grant key: cannot read ${path}: ${(err as Error).message}`);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // `wx`: two processes starting on one DATA_DIR never overwrite each other's key.
    try {
      writeFileSync(path, JSON.stringify(generateGrantKey()), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    chmodSync(path, 0o600);
    text = readFileSync(path, 'utf8');
  }
  if ((statSync(path).mode & 0o077) !== 0) throw new Error(`grant key: ${path} is readable by others; run chmod 600 on it`);
  try {
    return JSON.parse(text) as GrantKeyInput;
  } catch {
    throw new Error(`grant key: ${path} is not a JWK`);
  }
}

/**
 * Distributed mode's grant key, from a secret (GRANT_SIGNING_KEY): a PKCS#8 PEM or a private JWK
 * as JSON. Every evaluator replica must share it, so it is never generated there.
 */
export function parseGrantKeySetting(value: string): GrantKeyInput {
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as GrantKeyInput;
    } catch {
      throw new Error('GRANT_SIGNING_KEY is neither a PEM nor a JSON JWK');
    }
  }
  return text.replace(/\\n/g, '\n');
}
