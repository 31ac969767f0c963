import { createHash, randomBytes } from 'node:crypto';
import { BASE62_ALPHABET, formatApiKey } from '../domain/api-key';

/** 32 uniformly random base62 characters (rejection sampling avoids modulo bias). */
export function generateApiKey(): string {
  let body = '';
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += BASE62_ALPHABET[byte % 62];
    }
  }
  return formatApiKey(body);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
