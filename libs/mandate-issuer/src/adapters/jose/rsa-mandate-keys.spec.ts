import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { generateRsaSigningKey, privateKeyFromPkcs8, signMandate } from './rsa-mandate-keys';

describe('RSA mandate keys', () => {
  it('signs an RS256 mandate+jwt that an independent verifier accepts against the published JWK only', async () => {
    const key = await generateRsaSigningKey();
    expect(key.publicJwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: key.kid, e: 'AQAB' });
    expect(Buffer.from(key.publicJwk.n, 'base64url').length).toBe(256);
    expect(Object.keys(key.publicJwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);

    const now = Math.floor(Date.now() / 1000);
    const token = await signMandate(
      { iss: 'intent-gateway', sub: 'agent-1', aud: 'crm-api', iat: now, nbf: now, exp: now + 60, jti: 'cred_1' },
      { kid: key.kid, privateKey: privateKeyFromPkcs8(key.privatePkcs8) },
    );
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'mandate+jwt', kid: key.kid });
    const verified = await jwtVerify(token, createLocalJWKSet({ keys: [key.publicJwk] }), { algorithms: ['RS256'], audience: 'crm-api', typ: 'mandate+jwt' });
    expect(verified.payload.sub).toBe('agent-1');

    const other = await generateRsaSigningKey();
    await expect(jwtVerify(token, createLocalJWKSet({ keys: [{ ...other.publicJwk, kid: key.kid }] }), { algorithms: ['RS256'] })).rejects.toThrow();
  });

  it('refuses keys that are not RSA ≥ 2048 as signing keys', async () => {
    const small = await generateRsaSigningKey(1024);
    expect(() => privateKeyFromPkcs8(small.privatePkcs8)).toThrow(/at least 2048/);
  });
});
