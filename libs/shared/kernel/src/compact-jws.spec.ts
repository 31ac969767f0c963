import { isCanonicalBase64url, isCanonicalCompactJws } from './compact-jws';

describe('canonical base64url', () => {
  it('accepts what Buffer encodes, for every length', () => {
    for (let n = 1; n <= 40; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff));
      expect(isCanonicalBase64url(bytes.toString('base64url'))).toBe(true);
    }
  });

  it.each([
    ['padding', 'YWJj' + 'ZA=='],
    ['one padding character', 'YWJjZGU='],
    ['standard alphabet +', 'a+b'],
    ['standard alphabet /', 'a/bc'],
    ['whitespace', 'YWJj ZA'],
    ['a length that encodes no whole byte', 'YWJjZ'],
    ['spare bits set (2 chars)', 'ZB'],
    ['spare bits set (3 chars)', 'YWF'],
    ['empty', ''],
  ])('refuses %s', (_name, segment) => {
    expect(isCanonicalBase64url(segment)).toBe(false);
  });

  it('holds a compact JWS to three canonical segments', () => {
    const seg = (s: string) => Buffer.from(s).toString('base64url');
    const token = `${seg('{"alg":"RS256"}')}.${seg('{"sub":"a"}')}.${seg('signature-bytes')}`;
    expect(isCanonicalCompactJws(token)).toBe(true);
    expect(isCanonicalCompactJws(`${token}==`)).toBe(false);
    expect(isCanonicalCompactJws(`${token}.`)).toBe(false);
    expect(isCanonicalCompactJws(token.split('.').slice(0, 2).join('.') + '.')).toBe(false);
    expect(isCanonicalCompactJws(token.split('.').slice(0, 2).join('.'))).toBe(false);
  });
});
