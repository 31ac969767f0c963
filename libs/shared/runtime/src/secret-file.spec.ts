import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOrCreateSecretFile, SecretFileError } from './secret-file';

describe('readOrCreateSecretFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'secret-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the secret once, owner-only, and reads the same one back', () => {
    const path = join(dir, 'keys', 'k');
    let made = 0;
    const create = () => `secret-${++made}`;
    expect(readOrCreateSecretFile(path, create)).toBe('secret-1');
    expect(readOrCreateSecretFile(path, create)).toBe('secret-1');
    expect(made).toBe(1);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'keys')).mode & 0o777).toBe(0o700);
  });

  it('refuses a secret others can read, and says how to fix it', () => {
    const path = join(dir, 'k');
    writeFileSync(path, 'leaked', { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(() => readOrCreateSecretFile(path, () => 'new')).toThrow(SecretFileError);
    expect(() => readOrCreateSecretFile(path, () => 'new')).toThrow(/chmod 600/);
    expect(readFileSync(path, 'utf8')).toBe('leaked');
  });
});
