import { randomBytes } from 'node:crypto';
import { KeyDecryptionError, KeyEncryption, parseKek } from './key-encryption';

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
