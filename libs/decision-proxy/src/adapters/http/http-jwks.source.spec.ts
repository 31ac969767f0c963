import { rsaKeysOf } from './http-jwks.source';

describe('rsaKeysOf', () => {
  it('keeps RSA keys with kid, n and e (public members only) and drops the rest', () => {
    const body = {
      keys: [
        { kty: 'RSA', kid: 'a', n: 'nn', e: 'AQAB', alg: 'RS256', use: 'sig', d: 'private!' },
        { kty: 'RSA', kid: 'b', n: 'nn', e: 'AQAB' },
        { kty: 'EC', kid: 'c', crv: 'P-256', x: 'x', y: 'y' },
        { kty: 'RSA', n: 'nn', e: 'AQAB' },
        { kty: 'RSA', kid: 'd', n: 7, e: 'AQAB' },
        { kty: 'RSA', kid: '', n: 'nn', e: 'AQAB' },
        null,
        'x',
      ],
    };
    expect(rsaKeysOf(body)).toEqual([
      { kty: 'RSA', kid: 'a', n: 'nn', e: 'AQAB', alg: 'RS256', use: 'sig' },
      { kty: 'RSA', kid: 'b', n: 'nn', e: 'AQAB' },
    ]);
  });

  it.each([null, 'x', [], {}, { keys: 'x' }])('is null for a body that is no JWKS (%p)', (body) => {
    expect(rsaKeysOf(body)).toBeNull();
  });

  it('an empty key set is a set', () => {
    expect(rsaKeysOf({ keys: [] })).toEqual([]);
  });
});
