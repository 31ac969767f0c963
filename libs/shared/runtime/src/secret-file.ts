import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Embedded mode's generated secrets (grant key, key-encryption key): created once, owner-only
 * (directory 0700, file 0600), and read back on every start so what they protect stays usable
 * across restarts. Two processes starting on one DATA_DIR never overwrite each other's secret
 * (`wx`). A file others can read is refused: the process cannot vouch for a secret that leaked.
 */
export function readOrCreateSecretFile(path: string, create: () => string): string {
  try {
    const text = readFileSync(path, 'utf8');
    assertOwnerOnly(path);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw err instanceof SecretFileError ? err : new SecretFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, create(), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new SecretFileError(`cannot create ${path}: ${(e as Error).message}`);
  }
  chmodSync(path, 0o600);
  const text = readFileSync(path, 'utf8');
  assertOwnerOnly(path);
  return text;
}

export class SecretFileError extends Error {}

function assertOwnerOnly(path: string): void {
  if ((statSync(path).mode & 0o077) !== 0) throw new SecretFileError(`${path} is readable by others; run chmod 600 on it`);
}
