import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyDecryptionError, KeyEncryption, loadOrCreateEmbeddedKey, parseKek } from './key-encryption';
import { SecretFileError } from './secret-file';

describe('KeyEncryption (AES-256-GCM under the KEK)', () => {
  const kek = randomBytes(32);
  const enc = new KeyEncryption(kek);

  it('round-trips, with a fresh IV each time, and names the KEK without revealing it', () => {
    const secret = Buffer.from('-----BEGIN PRIVATE KEY----- not really');
    const a = enc.seal(secret, 'kid_1');
    const b = enc.seal(secret, 'kid_1');
    expect(a).not.toBe(b);
    expect(enc.open(a, 'kid_1')).toEqual(secret);
    expect(enc.kekId).toHaveLength(16);
    expect(enc.kekId).not.toContain(kek.toString('base64url').slice(0, 8));
    expect(new KeyEncryption(kek).kekId).toBe(enc.kekId);
  });

  it('refuses another KEK, another purpose (aad), a tampered or truncated value — without saying more', () => {
    const sealed = enc.seal(Buffer.from('k'), 'kid_1');
    expect(() => new KeyEncryption(randomBytes(32)).open(sealed, 'kid_1')).toThrow(KeyDecryptionError);
    expect(() => enc.open(sealed, 'kid_2')).toThrow(KeyDecryptionError);
    const raw = Buffer.from(sealed, 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => enc.open(raw.toString('base64url'), 'kid_1')).toThrow(KeyDecryptionError);
    expect(() => enc.open('abc', 'kid_1')).toThrow(KeyDecryptionError);
  });

  it('reads a KEK as hex or base64(url) of exactly 32 bytes', () => {
    const key = randomBytes(32);
    expect(parseKek(key.toString('hex'))).toEqual(key);
    expect(parseKek(key.toString('base64'))).toEqual(key);
    expect(parseKek(key.toString('base64url'))).toEqual(key);
    expect(parseKek('too-short')).toBeNull();
    expect(parseKek(randomBytes(31).toString('hex'))).toBeNull();
    expect(() => new KeyEncryption(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('loadOrCreateEmbeddedKey', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'embedded-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a 32-byte key once under DATA_DIR/keys/<name>, owner-only, and reads the same one back', () => {
    const key = loadOrCreateEmbeddedKey(dir, 'some-kek');
    expect(key).toHaveLength(32);
    const path = join(dir, 'keys', 'some-kek');
    expect(parseKek(readFileSync(path, 'utf8'))).toEqual(key);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateEmbeddedKey(dir, 'some-kek')).toEqual(key);
    expect(loadOrCreateEmbeddedKey(dir, 'other-kek')).not.toEqual(key);
  });

  it('keeps a key already on disk (hex or base64url) and refuses one that is not 32 bytes', () => {
    const key = randomBytes(32);
    const keys = join(dir, 'keys');
    loadOrCreateEmbeddedKey(dir, 'seed'); // creates DATA_DIR/keys
    writeFileSync(join(keys, 'hex'), key.toString('hex'), { mode: 0o600 });
    expect(loadOrCreateEmbeddedKey(dir, 'hex')).toEqual(key);
    writeFileSync(join(keys, 'b64'), key.toString('base64url'), { mode: 0o600 });
    expect(loadOrCreateEmbeddedKey(dir, 'b64')).toEqual(key);
    writeFileSync(join(keys, 'short'), randomBytes(16).toString('hex'), { mode: 0o600 });
    expect(() => loadOrCreateEmbeddedKey(dir, 'short')).toThrow(/does not hold a 32-byte key/);
  });

  it('refuses a key file others can read, and a name that is not a plain file name', () => {
    loadOrCreateEmbeddedKey(dir, 'k');
    chmodSync(join(dir, 'keys', 'k'), 0o644);
    expect(() => loadOrCreateEmbeddedKey(dir, 'k')).toThrow(SecretFileError);
    for (const bad of ['', '../k', 'a/b', '.hidden']) expect(() => loadOrCreateEmbeddedKey(dir, bad)).toThrow(/invalid embedded key name/);
  });
});
