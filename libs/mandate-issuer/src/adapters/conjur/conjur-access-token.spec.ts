import { CONJUR_TOKEN_TTL_SECONDS, conjurTokenExpiry, normaliseConjurToken } from './conjur-access-token';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const v5 = (payload: unknown) => ({ protected: b64url({ alg: 'conjur.org/slosilo/v2', kid: 'k' }), payload: b64url(payload), signature: 'c2ln' });

describe('normaliseConjurToken', () => {
  it('keeps a base64 token as Conjur sent it (Accept-Encoding: base64)', () => {
    const json = v5({ sub: 'host/a', iat: 1 });
    const base64 = Buffer.from(JSON.stringify(json)).toString('base64');
    expect(normaliseConjurToken(`${base64}\n`)).toEqual({ token: base64, json });
  });

  it('base64-encodes a raw JSON token (a server that ignored Accept-Encoding)', () => {
    const raw = JSON.stringify(v5({ sub: 'host/a', iat: 1 }));
    expect(normaliseConjurToken(raw)?.token).toBe(Buffer.from(raw).toString('base64'));
  });

  it('refuses bodies that are not a token', () => {
    for (const body of ['', '   ', 'aGVsbG8=', '<html>bad gateway</html>', '[1,2]', 'null', '"x"']) expect(normaliseConjurToken(body)).toBeNull();
  });
});

describe('conjurTokenExpiry', () => {
  const sent = new Date('2030-01-01T00:00:00Z');

  it('uses the exp claim of a v5 token', () => {
    expect(conjurTokenExpiry(v5({ iat: 1893456000, exp: 1893456480 }), sent).toISOString()).toBe('2030-01-01T00:08:00.000Z');
  });

  it('falls back to iat + 8 minutes, the legacy timestamp + 8 minutes, then the send time + 8 minutes', () => {
    expect(conjurTokenExpiry(v5({ iat: 1893456060 }), sent).toISOString()).toBe('2030-01-01T00:09:00.000Z');
    expect(conjurTokenExpiry({ data: 'admin', timestamp: '2030-01-01T00:02:00Z', signature: 'x', key: 'k' }, sent).toISOString()).toBe(
      '2030-01-01T00:10:00.000Z',
    );
    expect(conjurTokenExpiry({ payload: 'not-json' }, sent).getTime()).toBe(sent.getTime() + CONJUR_TOKEN_TTL_SECONDS * 1000);
  });
});
