import { displayPrefix, formatApiKey, isAcceptableKey, isWellFormedApiKey } from './api-key';

describe('API key format', () => {
  const body = 'abcdefghijklmnopqrstuvwxyzABCDEF';

  it('is igw_ + 32 base62 + 6-char checksum and round-trips', () => {
    const key = formatApiKey(body);
    expect(key).toMatch(/^igw_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(displayPrefix(key)).toBe('igw_abcdefgh');
  });

  it('rejects a key with one character changed (checksum)', () => {
    const key = formatApiKey(body);
    const typo = key.slice(0, 10) + (key[10] === 'x' ? 'y' : 'x') + key.slice(11);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey('igw_short')).toBe(false);
  });

  it('accepts environment keys of 32+ characters without the format', () => {
    expect(isAcceptableKey('x'.repeat(32))).toBe(true);
    expect(isAcceptableKey('x'.repeat(31))).toBe(false);
    expect(isAcceptableKey('has space'.padEnd(40, 'y'))).toBe(false);
  });
});
