import { createHash, createSecretKey, generateKeyPairSync, randomBytes, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { base64url, CompactSign, decodeProtectedHeader, exportJWK, SignJWT, UnsecuredJWT } from 'jose';
import { FixedClock } from '@igw/kernel';
import type { GrantRequest } from '../../application/grants/grant.port';
import { generateGrantKey, GRANT_ALG, JoseGrantService } from './jose-grant.service';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const CALL = createHash('sha256').update('{"args":{},"tool":"crm.lookup","v":1}').digest('hex');
const request = (over: Partial<GrantRequest> = {}): GrantRequest => ({
  orgId: 'org_1',
  userId: 'u1',
  intentLabel: 'crm.lookup',
  dataElements: ['crm:customers.email', 'crm:customers.name'],
  intentEventId: 'iev_1',
  call: CALL,
  ttlMinutes: 15,
  issuedAt: t0,
  ...over,
});
const payloadOf = (token: string) => JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1]!))) as Record<string, unknown>;
const encode = (value: unknown) => base64url.encode(JSON.stringify(value));

describe('JoseGrantService', () => {
  let clock: FixedClock;
  let key: KeyObject;
  let grants: JoseGrantService;

  beforeEach(() => {
    clock = new FixedClock(t0);
    key = generateKeyPairSync('ed25519').privateKey;
    grants = new JoseGrantService(key, clock);
  });

  it('signs a compact EdDSA JWS of type grant+jwt that verifies into the grant', async () => {
    const token = await grants.sign(request());
    expect(token.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', typ: 'grant+jwt', kid: grants.kid });
    expect(payloadOf(token)).toEqual({
      iss: 'intent-gateway',
      sub: 'u1',
      org: 'org_1',
      intent: 'crm.lookup',
      data_elements: ['crm:customers.email', 'crm:customers.name'],
      evt: 'iev_1',
      call: CALL,
      iat: t0.getTime() / 1000,
      exp: t0.getTime() / 1000 + 900,
      jti: expect.stringMatching(/^grt_[0-9a-f]{32}$/),
    });
    expect(await grants.verify(token, 'org_1')).toEqual({
      valid: true,
      grant: {
        dataElements: ['crm:customers.email', 'crm:customers.name'],
        intentLabel: 'crm.lookup',
        intentEventId: 'iev_1',
        userId: 'u1',
        expiresAt: new Date('2026-03-01T10:15:00.000Z'),
        call: CALL,
      },
    });
  });

  it('gives every grant its own jti', async () => {
    const [a, b] = await Promise.all([grants.sign(request()), grants.sign(request())]);
    expect(payloadOf(a).jti).not.toBe(payloadOf(b).jti);
  });

  it('round-trips an anonymous grant', async () => {
    const token = await grants.sign(request({ userId: null }));
    expect(payloadOf(token).sub).toBe('anonymous');
    expect(await grants.verify(token, 'org_1')).toMatchObject({ valid: true, grant: { userId: null } });
  });

  it('expires after the intention ttl', async () => {
    const token = await grants.sign(request({ ttlMinutes: 1 }));
    clock.advance(59_999);
    expect((await grants.verify(token, 'org_1')).valid).toBe(true);
    clock.advance(1);
    expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'expired' });
  });

  it('belongs to its org only', async () => {
    const token = await grants.sign(request());
    expect(await grants.verify(token, 'org_2')).toEqual({ valid: false, reason: 'other_org' });
  });

  it('refuses a tampered payload', async () => {
    const [h, , s] = (await grants.sign(request())).split('.');
    const widened = { ...payloadOf(await grants.sign(request())), data_elements: ['crm:*'] };
    expect(await grants.verify(`${h}.${encode(widened)}.${s}`, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
    const otherOrg = { ...payloadOf(await grants.sign(request())), org: 'org_2' };
    expect(await grants.verify(`${h}.${encode(otherOrg)}.${s}`, 'org_2')).toEqual({ valid: false, reason: 'bad_signature' });
  });

  it('refuses a tampered header or signature', async () => {
    const [h, p, s] = (await grants.sign(request())).split('.');
    const header = { alg: 'EdDSA', typ: 'grant+jwt' }; // kid dropped: still a different signed header
    expect(await grants.verify(`${encode(header)}.${p}.${s}`, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
    const sig = base64url.decode(s!);
    sig[0] = sig[0]! ^ 1;
    expect(await grants.verify(`${h}.${p}.${base64url.encode(sig)}`, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
    expect(await grants.verify(`${h}.${p}.${base64url.encode(sig.subarray(0, 10))}`, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
    // No signature at all is not a compact JWS of three segments (DESIGN 6.12).
    expect(await grants.verify(`${h}.${p}.`, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
  });

  it('refuses a grant signed by another Ed25519 key, even one claiming our kid or embedding its own jwk', async () => {
    const other = new JoseGrantService(generateGrantKey(), clock);
    const token = await other.sign(request());
    expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });

    const attacker = generateKeyPairSync('ed25519');
    const claims = payloadOf(token);
    for (const header of [
      { alg: 'EdDSA', typ: 'grant+jwt', kid: grants.kid },
      { alg: 'EdDSA', typ: 'grant+jwt', jwk: await exportJWK(attacker.publicKey) },
      { alg: 'EdDSA', typ: 'grant+jwt', jku: 'https://attacker.example/jwks' },
    ]) {
      const forged = await new SignJWT(claims).setProtectedHeader(header).sign(attacker.privateKey);
      expect(await grants.verify(forged, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
    }
  });

  it('never takes a mandate (RS256, typ mandate+jwt, another key) for a grant', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const mandateClaims = { iss: 'intent-gateway', sub: 'u1', org: 'org_1', aud: 'crm-api', scope: { operations: ['crm.read'] } };
    const mandate = await new SignJWT(mandateClaims)
      .setProtectedHeader({ alg: 'RS256', typ: 'mandate+jwt', kid: 'k1' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti('m1')
      .sign(rsa.privateKey);
    expect(await grants.verify(mandate, 'org_1')).toEqual({ valid: false, reason: 'wrong_type' });
    // Even dressed as a grant, with every grant claim, RS256 is not our algorithm.
    const dressed = await new SignJWT(payloadOf(await grants.sign(request()))).setProtectedHeader({ alg: 'RS256', typ: 'grant+jwt' }).sign(rsa.privateKey);
    expect(await grants.verify(dressed, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
  });

  it('refuses a token of no or another type, signed with our own key', async () => {
    const claims = payloadOf(await grants.sign(request()));
    for (const typ of ['JWT', 'mandate+jwt', undefined]) {
      const header = typ === undefined ? { alg: GRANT_ALG } : { alg: GRANT_ALG, typ };
      const token = await new SignJWT(claims).setProtectedHeader(header).sign(key);
      expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'wrong_type' });
    }
  });

  it('refuses alg none', async () => {
    const claims = payloadOf(await grants.sign(request()));
    const unsecured = new UnsecuredJWT(claims).encode(); // header {"alg":"none"}
    expect((await grants.verify(unsecured, 'org_1')).valid).toBe(false);
    const typed = `${encode({ alg: 'none', typ: 'grant+jwt' })}.${encode(claims)}.`;
    expect(await grants.verify(typed, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
    const [, , s] = (await grants.sign(request())).split('.');
    expect(await grants.verify(`${encode({ alg: 'none', typ: 'grant+jwt' })}.${encode(claims)}.${s}`, 'org_1')).toEqual({
      valid: false,
      reason: 'bad_signature',
    });
  });

  it('refuses HS256, also with our public key as the secret', async () => {
    const claims = payloadOf(await grants.sign(request()));
    const publicJwk = await exportJWK(grants['publicKey']);
    for (const secret of [
      new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'),
      new TextEncoder().encode(JSON.stringify(publicJwk)),
      base64url.decode(publicJwk.x!),
    ]) {
      const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'grant+jwt' }).sign(secret);
      expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'bad_signature' });
    }
  });

  it.each([
    ['empty', ''],
    ['a word', 'garbage'],
    ['two parts', 'a.b'],
    ['empty parts', '..'],
    ['three junk parts', 'a.b.c'],
    ['a header that is not JSON', `${base64url.encode('nope')}.e30.c2ln`],
    ['a header that is a JSON array', `${encode([1])}.e30.c2ln`],
    ['a JWE-shaped token', 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aXY.Y2lwaGVy.dGFn'],
    ['a huge token', `${encode({ alg: 'EdDSA', typ: 'grant+jwt' })}.${'A'.repeat(70_000)}.c2ln`],
  ])('calls %s malformed', async (_what, token) => {
    expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
  });

  describe('one spelling per token (DESIGN 6.12)', () => {
    /** The same bytes, spelt otherwise: lenient decoders read all of these as the genuine token. */
    const respell = (token: string, part: number, how: (segment: string) => string) =>
      token
        .split('.')
        .map((s, i) => (i === part ? how(s) : s))
        .join('.');
    const padded = (s: string) => s + '='.repeat((4 - (s.length % 4)) % 4 || 2);
    /** Sets a spare low bit of the last character (only when the length leaves spare bits). */
    const spareBit = (s: string) => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      return s.slice(0, -1) + alphabet[alphabet.indexOf(s.at(-1)!) | 1];
    };

    it.each([
      ['a padded signature', 2, padded],
      ['a padded payload', 1, padded],
      ['a padded header', 0, padded],
      ['a signature with a stray character', 2, (s: string) => `${s.slice(0, 10)}+${s.slice(10)}`],
      ['a payload with whitespace', 1, (s: string) => ` ${s}`],
      ['a signature whose spare bits are set', 2, spareBit],
    ])('calls %s malformed, also once the genuine token is cached', async (_what, part, how) => {
      const token = await grants.sign(request());
      const variant = respell(token, part, how);
      expect(variant).not.toBe(token);
      expect(await grants.verify(variant, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
      expect((await grants.verify(token, 'org_1')).valid).toBe(true);
      expect(await grants.verify(variant, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
    });
  });

  it('calls a non-string malformed rather than throwing', async () => {
    expect(await grants.verify(42 as unknown as string, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
  });

  it('calls a correctly signed token with a bad payload malformed', async () => {
    const sign = (payload: Uint8Array, extra: Record<string, unknown> = {}) =>
      new CompactSign(payload).setProtectedHeader({ alg: GRANT_ALG, typ: 'grant+jwt', ...extra }).sign(key);
    const claims = payloadOf(await grants.sign(request()));
    const { evt: _evt, ...noEvt } = claims;
    for (const payload of ['not json', '[1]', JSON.stringify(noEvt), JSON.stringify({ ...claims, iss: 'someone-else' })]) {
      expect(await grants.verify(await sign(new TextEncoder().encode(payload)), 'org_1')).toEqual({ valid: false, reason: 'malformed' });
    }
    expect(await grants.verify(await sign(new Uint8Array([0xff, 0xfe])), 'org_1')).toEqual({ valid: false, reason: 'malformed' });
    // An unknown critical header is refused even under a good signature (jose will not sign one).
    const header = encode({ alg: GRANT_ALG, typ: 'grant+jwt', crit: ['x-foo'], 'x-foo': 1 });
    const input = `${header}.${encode(claims)}`;
    const crit = `${input}.${base64url.encode(cryptoSign(null, Buffer.from(input), key))}`;
    expect(await grants.verify(crit, 'org_1')).toEqual({ valid: false, reason: 'malformed' });
  });

  describe('verified-token cache', () => {
    it('still checks org and expiry on every call', async () => {
      const token = await grants.sign(request({ ttlMinutes: 1 }));
      expect((await grants.verify(token, 'org_1')).valid).toBe(true);
      expect(await grants.verify(token, 'org_2')).toEqual({ valid: false, reason: 'other_org' });
      expect((await grants.verify(token, 'org_1')).valid).toBe(true);
      clock.advance(60_000);
      expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'expired' });
      expect(await grants.verify(token, 'org_1')).toEqual({ valid: false, reason: 'expired' });
    });

    it('answers from the cache without checking the signature again', async () => {
      let checks = 0;
      let Service!: typeof JoseGrantService;
      jest.isolateModules(() => {
        jest.doMock('jose', () => {
          const actual = jest.requireActual('jose');
          return { ...actual, compactVerify: (...args: unknown[]) => (checks++, actual.compactVerify(...args)) };
        });
        Service = require('./jose-grant.service').JoseGrantService;
      });
      jest.dontMock('jose');
      const counted = new Service(key, clock);
      const token = await counted.sign(request());
      for (let i = 0; i < 5; i++) expect((await counted.verify(token, 'org_1')).valid).toBe(true);
      expect(checks).toBe(1);
    });

    it('is bounded, the oldest token leaving first, and can be switched off', async () => {
      const small = new JoseGrantService(key, clock, 2);
      const [a, b, c] = await Promise.all([small.sign(request()), small.sign(request()), small.sign(request())]);
      for (const t of [a, b, c]) await small.verify(t!, 'org_1');
      expect([...small['verified'].keys()]).toEqual([b, c]);
      expect((await small.verify(a!, 'org_1')).valid).toBe(true);
      const none = new JoseGrantService(key, clock, 0);
      expect((await none.verify(a!, 'org_1')).valid).toBe(true);
      expect(none['verified'].size).toBe(0);
    });

    it('never holds a token whose signature failed', async () => {
      const [h, p] = (await grants.sign(request())).split('.');
      const forged = `${h}.${p}.${base64url.encode(new Uint8Array(64))}`;
      expect((await grants.verify(forged, 'org_1')).valid).toBe(false);
      expect(grants['verified'].size).toBe(0);
    });
  });

  describe('keys', () => {
    it('generates an Ed25519 private JWK that survives a restart', async () => {
      const jwk = generateGrantKey();
      expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', d: expect.any(String), x: expect.any(String) });
      const before = new JoseGrantService(jwk, clock);
      const after = new JoseGrantService(JSON.parse(JSON.stringify(jwk)), clock);
      expect(after.kid).toBe(before.kid);
      expect((await after.verify(await before.sign(request()), 'org_1')).valid).toBe(true);
    });

    it('accepts a KeyObject, a JWK or a PKCS#8 PEM of the same key alike', async () => {
      const pem = key.export({ format: 'pem', type: 'pkcs8' }) as string;
      const fromPem = new JoseGrantService(pem, clock);
      const fromJwk = new JoseGrantService(key.export({ format: 'jwk' }), clock);
      expect(fromPem.kid).toBe(grants.kid);
      expect(fromJwk.kid).toBe(grants.kid);
      expect((await fromPem.verify(await fromJwk.sign(request()), 'org_1')).valid).toBe(true);
    });

    it('uses the RFC 7638 thumbprint as kid', async () => {
      const { calculateJwkThumbprint } = await import('jose');
      expect(grants.kid).toBe(await calculateJwkThumbprint(await exportJWK(grants['publicKey'])));
    });

    it.each([
      ['an RSA key', () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey],
      ['a P-256 key', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey],
      ['an Ed448 key', () => generateKeyPairSync('ed448').privateKey],
      ['a public key', () => generateKeyPairSync('ed25519').publicKey],
      ['a public JWK', () => generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' })],
      ['a PEM that is not a key', () => '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----'],
      ['an empty JWK', () => ({})],
      ['a secret key', () => createSecretKey(randomBytes(32))],
    ])('refuses %s with one clear line', (_what, make) => {
      expect(() => new JoseGrantService(make() as never, clock)).toThrow(/^grant key: /);
    });
  });
});
