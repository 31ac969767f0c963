import { join } from 'node:path';
import { readOrCreateSecretFile } from '@igw/runtime';
import { generateGrantKey, type GrantKeyInput } from '../jose/jose-grant.service';

/** Where embedded mode keeps the grant key, under DATA_DIR. */
export const grantKeyPath = (dataDir: string) => join(dataDir, 'keys', 'grant-signing-key.jwk');

/** Embedded mode's grant key: generated on first start and kept owner-only under DATA_DIR. */
export function loadOrCreateEmbeddedGrantKey(dataDir: string): GrantKeyInput {
  const path = grantKeyPath(dataDir);
  const text = readOrCreateSecretFile(path, () => JSON.stringify(generateGrantKey()));
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
