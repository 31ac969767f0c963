import { generateKeyPairSync, randomUUID, sign as signBytes, type KeyObject } from 'node:crypto';
import { SignJWT, type JWK, type JWTHeaderParameters } from 'jose';
import { AppError, DependencyUnavailableError, FixedClock } from '@igw/kernel';
import type { JwkSet, JwksSource } from '../../application/verification/jwks-source.port';
import { mandateInvalid, requireMandate, type MandateVerification } from '../../application/verification/mandate-verifier.port';
import { InMemoryRevocationSet } from '../../application/verification/revocation-set';
import { JoseMandateVerifier } from './jose-mandate.verifier';

const T0 = new Date('2026-11-22T12:00:00Z');
const AUD = 'crm-api';

interface TestKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: JWK;
}

function newKey(bits = 2048): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const kid = `k-${randomUUID()}`;
  return { kid, privateKey, publicKey, jwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256', use: 'sig' } };
}

class FakeSource implements JwksSource {
  fetches = 0;
  down = false;
  constructor(public keys: JWK[]) {}
  async fetch(): Promise<JwkSet> {
    this.fetches++;
    if (this.down) throw new DependencyUnavailableError('mandate issuer JWKS');
    return { keys: this.keys.map((k) => ({ ...k })) };
  }
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('JoseMandateVerifier', () => {
  const keyA = newKey();
  const keyB = newKey();
  let clock: FixedClock;
  let source: FakeSource;
  let revocations: InMemoryRevocationSet;
  let verifier: JoseMandateVerifier;

  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  const claims = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
    iss: 'intent-gateway',
    sub: 'agent-7',
    aud: AUD,
    org: 'org_1',
    intent_id: 'card_1',
    prompt_id: 'p-1',
    scope: { operations: ['crm.read'], resources: ['crm/*'], forbidden_operations: ['crm.delete'] },
    ctx: { acr: 'mfa' },
    acr: 'mfa',
    iat: nowS(),
    nbf: nowS(),
    exp: nowS() + 300,
    jti: `cred_${randomUUID()}`,
    ...over,
  });
  const sign = (c: Record<string, unknown> = claims(), header: Partial<JWTHeaderParameters> = {}, key: KeyObject | Uint8Array = keyA.privateKey) => {
    const payload = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'mandate+jwt', kid: keyA.kid, ...header } as JWTHeaderParameters).sign(key);
  };
  const verify = (token: string, audience = AUD, orgId?: string): Promise<MandateVerification> =>
    verifier.verify(token, { audience, ...(orgId !== undefined ? { orgId } : {}) });
  const reasonOf = async (token: string, audience = AUD) => {
    const r = await verify(token, audience);
    return r.ok ? 'ok' : r.reason;
  };

  beforeEach(() => {
    clock = new FixedClock(T0);
    source = new FakeSource([keyA.jwk]);
    revocations = new InMemoryRevocationSet(clock);
    verifier = new JoseMandateVerifier(source, revocations, { clock });
  });

  it('verifies a valid mandate and exposes its claims', async () => {
    const c = claims();
    const r = await verify(await sign(c));
    expect(r).toEqual({ ok: true, claims: { ...c, kid: keyA.kid } });
    expect(source.fetches).toBe(1);
  });

  it('accepts a mandate without ctx, acr, iat and nbf (ctx defaults to {})', async () => {
    const r = await verify(await sign(claims({ ctx: undefined, acr: undefined, iat: undefined, nbf: undefined })));
    expect(r.ok && r.claims.ctx).toEqual({});
  });

  describe('DESIGN 8 attacks', () => {
    it('refuses alg none', async () => {
      const token = `${b64({ alg: 'none', typ: 'mandate+jwt', kid: keyA.kid })}.${b64(claims())}.${Buffer.from('junk').toString('base64url')}`;
      expect(await reasonOf(token)).toBe('alg');
      // The usual alg-none form has an empty signature: not three canonical segments.
      expect(await reasonOf(`${b64({ alg: 'none', typ: 'mandate+jwt', kid: keyA.kid })}.${b64(claims())}.`)).toBe('malformed');
      const noSig = `${b64({ alg: 'none', typ: 'mandate+jwt', kid: keyA.kid })}.${b64(claims())}`;
      expect(await reasonOf(noSig)).toBe('malformed');
    });

    it('refuses HS256 signed with the public key (PEM and JWK n) as the HMAC secret', async () => {
      const pem = keyA.publicKey.export({ format: 'pem', type: 'spki' }) as string;
      expect(await reasonOf(await sign(claims(), { alg: 'HS256' }, new TextEncoder().encode(pem)))).toBe('alg');
      expect(await reasonOf(await sign(claims(), { alg: 'HS256' }, new TextEncoder().encode(JSON.stringify(keyA.jwk))))).toBe('alg');
    });

    it('refuses other asymmetric algorithms too (PS256 with the right key)', async () => {
      expect(await reasonOf(await sign(claims(), { alg: 'PS256' }))).toBe('alg');
    });

    it('refuses a forged or missing kid, refetching the JWKS at most once per cooldown', async () => {
      expect(await reasonOf(await sign())).toBe('ok');
      expect(source.fetches).toBe(1);
      const attacker = newKey();
      // A kid the issuer does not publish, signed by the attacker's key; also our kid with their key.
      const forged = await sign(claims(), { kid: attacker.kid }, attacker.privateKey);
      expect(await reasonOf(forged)).toBe('kid');
      expect(source.fetches).toBe(1); // the initial load was < 30 s ago
      clock.advance(31_000);
      expect(await reasonOf(forged)).toBe('kid');
      expect(source.fetches).toBe(2);
      for (let i = 0; i < 20; i++) expect(await reasonOf(await sign(claims(), { kid: `k-${i}` }, attacker.privateKey))).toBe('kid');
      expect(source.fetches).toBe(2);
      clock.advance(29_000);
      expect(await reasonOf(forged)).toBe('kid');
      expect(source.fetches).toBe(2);
      clock.advance(1_000);
      expect(await reasonOf(forged)).toBe('kid');
      expect(source.fetches).toBe(3);
      expect(await reasonOf(await sign(claims(), { kid: keyA.kid }, attacker.privateKey))).toBe('signature');
      expect(await reasonOf(await sign(claims(), { kid: undefined }))).toBe('kid');
      expect(await reasonOf(await sign(claims(), { kid: '' }))).toBe('kid');
    });

    it.each([
      ['jku', { jku: 'https://attacker.example/jwks.json' }],
      ['x5u', { x5u: 'https://attacker.example/cert.pem' }],
      ['jwk', { jwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } }],
      ['x5c', { x5c: ['MIIB'] }],
      ['crit', { crit: ['exp'] }],
    ])('refuses a %s header outright and fetches nothing it names', async (_name, header) => {
      const attacker = newKey();
      const h = { ...header, ...(_name === 'jwk' ? { jwk: attacker.jwk } : {}) } as Partial<JWTHeaderParameters>;
      const token = `${b64({ alg: 'RS256', typ: 'mandate+jwt', kid: keyA.kid, ...h })}.${b64(claims())}.c2ln`;
      expect(await reasonOf(token)).toBe('header');
      expect(source.fetches).toBe(0);
    });

    it('refuses a missing exp', async () => {
      expect(await reasonOf(await sign(claims({ exp: undefined })))).toBe('claims');
    });

    it('refuses an expired mandate (beyond the 30 s skew) and accepts one within it', async () => {
      expect(await reasonOf(await sign(claims({ iat: nowS() - 400, nbf: nowS() - 400, exp: nowS() - 31 })))).toBe('expired');
      expect(await reasonOf(await sign(claims({ iat: nowS() - 400, nbf: nowS() - 400, exp: nowS() - 10 })))).toBe('ok');
    });

    it('refuses nbf or iat in the future (beyond the skew)', async () => {
      expect(await reasonOf(await sign(claims({ nbf: nowS() + 60 })))).toBe('not_yet_valid');
      expect(await reasonOf(await sign(claims({ iat: nowS() + 60 })))).toBe('not_yet_valid');
      expect(await reasonOf(await sign(claims({ nbf: nowS() + 20, iat: nowS() + 20 })))).toBe('ok');
    });

    it('refuses a wrong aud, an array aud and a missing aud', async () => {
      expect(await reasonOf(await sign(), 'billing-api')).toBe('audience');
      expect(await reasonOf(await sign(claims({ aud: [AUD] })))).toBe('claims');
      expect(await reasonOf(await sign(claims({ aud: undefined })))).toBe('claims');
    });

    it.each(['grant+jwt', 'JWT', 'jwt', undefined, 'at+jwt'])('refuses typ %s', async (typ) => {
      expect(await reasonOf(await sign(claims(), { typ }))).toBe('typ');
    });

    it('accepts the media-type spelling application/mandate+jwt', async () => {
      expect(await reasonOf(await sign(claims(), { typ: 'application/mandate+jwt' }))).toBe('ok');
    });

    it.each(['iss', 'sub', 'org', 'intent_id', 'scope', 'jti', 'exp'])('refuses a mandate without %s', async (name) => {
      expect(await reasonOf(await sign(claims({ [name]: undefined })))).toBe('claims');
    });

    it('accepts a mandate bound to no prompt (no prompt_id claim) and reports none; refuses a null or empty prompt_id', async () => {
      const unbound = await verify(await sign(claims({ prompt_id: undefined })));
      expect(unbound.ok).toBe(true);
      expect(unbound.ok && unbound.claims).not.toHaveProperty('prompt_id');
      expect(await reasonOf(await sign(claims({ prompt_id: null })))).toBe('claims');
      expect(await reasonOf(await sign(claims({ prompt_id: '' })))).toBe('claims');
    });

    it.each([
      ['iss of another issuer', { iss: 'someone-else' }],
      ['numeric sub', { sub: 7 }],
      ['empty org', { org: '' }],
      ['string exp', { exp: String(Math.floor(T0.getTime() / 1000) + 300) }],
      ['scope without forbidden_operations', { scope: { operations: ['a'], resources: ['b'] } }],
      ['scope with a non-string', { scope: { operations: [1], resources: [], forbidden_operations: [] } }],
      ['ctx array', { ctx: [] }],
      ['acr number', { acr: 2 }],
    ])('refuses %s', async (_name, over) => {
      expect(await reasonOf(await sign(claims(over)))).toBe('claims');
    });

    it('refuses a tampered payload (and a tampered header)', async () => {
      const [h, , s] = (await sign()).split('.');
      const evil = claims({ scope: { operations: ['*'], resources: ['*'], forbidden_operations: [] } });
      expect(await reasonOf(`${h}.${b64(evil)}.${s}`)).toBe('signature');
      const [, p2, s2] = (await sign()).split('.');
      expect(await reasonOf(`${b64({ alg: 'RS256', typ: 'mandate+jwt', kid: keyA.kid, x: 1 })}.${p2}.${s2}`)).toBe('signature');
    });

    it('refuses a revoked jti', async () => {
      const c = claims();
      revocations.revoke(c['jti'] as string, new Date((c['exp'] as number) * 1000));
      expect(await reasonOf(await sign(c))).toBe('revoked');
    });

    it.each([
      ['empty', ''],
      ['not a JWS', 'hello'],
      ['JWE-shaped', 'a.b.c.d.e'],
      ['garbage header', 'e30x.e30.e30'],
      ['huge', `${'a'.repeat(20_000)}.b.c`],
    ])('refuses a malformed token (%s)', async (_name, token) => {
      expect(await reasonOf(token)).toBe('malformed');
    });

    describe('canonical base64url segments (DESIGN 6.12: one spelling per token)', () => {
      /** The same segment with the lowest (always spare) bit of its last character set: lenient decoders read the same bytes. */
      const withSpareBit = (segment: string) => {
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        return segment.slice(0, -1) + alphabet[alphabet.indexOf(segment[segment.length - 1]!) | 1];
      };
      const segments = async () => (await sign()).split('.') as [string, string, string];

      it('the untouched token verifies (each case below differs from it only in spelling)', async () => {
        expect(await reasonOf(await sign())).toBe('ok');
      });

      it('refuses padding on the signature, the header or the payload', async () => {
        const [h, p, s] = await segments();
        expect(await reasonOf(`${h}.${p}.${s}==`)).toBe('malformed');
        expect(await reasonOf(`${h}.${p}.${s}=`)).toBe('malformed');
        expect(await reasonOf(`${h}==.${p}.${s}`)).toBe('malformed');
        expect(await reasonOf(`${h}.${p}=.${s}`)).toBe('malformed');
      });

      it("refuses the standard alphabet's + and / and stray characters", async () => {
        const [h, p, s] = await segments();
        // The standard alphabet's spelling of a value: jose would read '+' and '/' like '-' and '_'.
        expect(await reasonOf(`${h}.${p}.+${s.slice(1)}`)).toBe('malformed');
        expect(await reasonOf(`${h}.${p}./${s.slice(1)}`)).toBe('malformed');
        expect(await reasonOf(`${h}.${p}.${s.slice(0, 10)} ${s.slice(10)}`)).toBe('malformed');
        expect(await reasonOf(`${h}.${p}.${s}\n`)).toBe('malformed');
        expect(await reasonOf(` ${h}.${p}.${s}`)).toBe('malformed');
      });

      it('refuses non-zero spare bits in the last character', async () => {
        const [h, p, s] = await segments();
        // A 2048-bit signature is 256 bytes: 342 characters, the last one carrying 4 spare bits.
        expect(s.length % 4).toBe(2);
        expect(Buffer.from(withSpareBit(s), 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
        expect(await reasonOf(`${h}.${p}.${withSpareBit(s)}`)).toBe('malformed');
        // A payload whose length leaves spare bits (an unknown claim pads it), then its header likewise.
        let token = '';
        for (let n = 0; token === '' || token.split('.')[1]!.length % 4 === 0; n++) token = await sign(claims({ pad: 'x'.repeat(n) }));
        expect(await reasonOf(token)).toBe('ok');
        const [h2, p2, s2] = token.split('.') as [string, string, string];
        expect(await reasonOf(`${h2}.${withSpareBit(p2)}.${s2}`)).toBe('malformed');
        let padded = '';
        for (let n = 0; padded === '' || padded.split('.')[0]!.length % 4 === 0; n++)
          padded = await sign(claims(), { kid: keyA.kid, x: 'y'.repeat(n) } as Partial<JWTHeaderParameters>);
        expect(await reasonOf(padded)).toBe('ok');
        const [h3, p3, s3] = padded.split('.') as [string, string, string];
        expect(await reasonOf(`${withSpareBit(h3)}.${p3}.${s3}`)).toBe('malformed');
      });
    });

    it('refuses a non-JSON payload with a valid signature', async () => {
      const { CompactSign } = await import('jose');
      const token = await new CompactSign(new TextEncoder().encode('not json'))
        .setProtectedHeader({ alg: 'RS256', typ: 'mandate+jwt', kid: keyA.kid })
        .sign(keyA.privateKey);
      expect(await reasonOf(token)).toBe('malformed');
    });
  });

  describe('keys', () => {
    it('rotation: a token of a new key verifies once its kid appears in the JWKS', async () => {
      expect(await reasonOf(await sign())).toBe('ok');
      const fromB = await sign(claims(), { kid: keyB.kid }, keyB.privateKey);
      source.keys = [keyA.jwk, keyB.jwk];
      clock.advance(30_000);
      expect(await reasonOf(fromB)).toBe('ok');
      expect(source.fetches).toBe(2);
      expect(await reasonOf(await sign())).toBe('ok'); // the old key still verifies
    });

    it('picks up a new key by the periodic background refresh (no unknown kid needed)', async () => {
      expect(await reasonOf(await sign())).toBe('ok');
      source.keys = [keyB.jwk];
      clock.advance(61_000);
      expect(await reasonOf(await sign())).toBe('ok'); // answered with the keys it had; refresh started
      expect(source.fetches).toBe(2);
      await Promise.resolve();
      expect(await reasonOf(await sign(claims(), { kid: keyB.kid }, keyB.privateKey))).toBe('ok');
      expect(await reasonOf(await sign())).toBe('kid'); // keyA was unpublished
      expect(source.fetches).toBe(2);
    });

    it('with the JWKS source down but keys cached, known kids still verify', async () => {
      expect(await reasonOf(await sign())).toBe('ok');
      source.down = true;
      clock.advance(120_000);
      expect(await reasonOf(await sign())).toBe('ok');
      await Promise.resolve();
      expect(await reasonOf(await sign())).toBe('ok');
      expect(await reasonOf(await sign(claims(), { kid: keyB.kid }, keyB.privateKey))).toBe('kid');
    });

    it('with the JWKS source down and no keys, fails closed with 503 (and retries after a backoff)', async () => {
      source.down = true;
      const token = await sign();
      await expect(verify(token)).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(verify(token)).rejects.toMatchObject({ kind: 'unavailable', code: 'unavailable' });
      expect(source.fetches).toBe(1); // within the 1 s failure backoff
      source.down = false;
      clock.advance(1_000);
      expect(await reasonOf(token)).toBe('ok');
      expect(source.fetches).toBe(2);
    });

    it('ignores foreign keys in the JWKS: EC, short RSA, alg other than RS256, use enc', async () => {
      const short = newKey(1024);
      const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JWK;
      const hs = { ...keyB.jwk, alg: 'PS256' };
      const enc = { ...keyB.jwk, kid: 'enc', use: 'enc' };
      source.keys = [{ ...ec, kid: 'ec' }, short.jwk, hs, enc];
      // jose will not sign with a short key: sign the compact JWS by hand.
      const input = `${b64({ alg: 'RS256', typ: 'mandate+jwt', kid: short.kid })}.${b64(claims())}`;
      const shortToken = `${input}.${signBytes('sha256', Buffer.from(input), short.privateKey).toString('base64url')}`;
      expect(await reasonOf(shortToken)).toBe('kid');
      expect(await reasonOf(await sign(claims(), { kid: keyB.kid }, keyB.privateKey))).toBe('kid');
      expect(await reasonOf(await sign(claims(), { kid: 'enc' }, keyB.privateKey))).toBe('kid');
    });

    it('fetches once for concurrent first calls', async () => {
      const tokens = await Promise.all([sign(), sign(), sign()]);
      const results = await Promise.all(tokens.map((t) => reasonOf(t)));
      expect(results).toEqual(['ok', 'ok', 'ok']);
      expect(source.fetches).toBe(1);
    });
  });

  describe('verified-token cache', () => {
    it('re-checks exp, audience and revocation on every call', async () => {
      const c = claims();
      const token = await sign(c);
      expect(await reasonOf(token)).toBe('ok');
      expect(await reasonOf(token, 'billing-api')).toBe('audience');
      expect(await reasonOf(token)).toBe('ok');
      revocations.revoke(c['jti'] as string);
      expect(await reasonOf(token)).toBe('revoked');
      const other = await sign();
      expect(await reasonOf(other)).toBe('ok');
      clock.advance(331_000);
      expect(await reasonOf(other)).toBe('expired');
    });

    it('does not keep accepting a cached token whose key was unpublished', async () => {
      const token = await sign();
      expect(await reasonOf(token)).toBe('ok');
      source.keys = [keyB.jwk];
      clock.advance(61_000);
      expect(await reasonOf(token)).toBe('ok'); // served from the keys it had; refresh in flight
      await Promise.resolve();
      expect(await reasonOf(token)).toBe('kid');
    });

    it('stays bounded (LRU) and answers repeats without re-verifying', async () => {
      verifier = new JoseMandateVerifier(source, revocations, { clock, cacheEntries: 2 });
      const [t1, t2, t3] = await Promise.all([sign(), sign(), sign()]);
      for (const t of [t1!, t2!, t3!]) expect(await reasonOf(t)).toBe('ok');
      const cache = (verifier as unknown as { verified: Map<string, unknown> }).verified;
      expect(cache.size).toBe(2);
      expect([...cache.keys()]).toEqual([t2, t3]);
      expect(await reasonOf(t2!)).toBe('ok');
      expect([...cache.keys()]).toEqual([t3, t2]);
    });

    it('answers a repeated mandate from the cache, without key lookup or signature check', async () => {
      const token = await sign();
      const keyFor = jest.spyOn(verifier as unknown as { keyFor: () => unknown }, 'keyFor');
      expect(await reasonOf(token)).toBe('ok');
      for (let i = 0; i < 100; i++) expect(await reasonOf(token)).toBe('ok');
      expect(keyFor).toHaveBeenCalledTimes(1);
    });

    it('never caches an expired token', async () => {
      const token = await sign(claims({ iat: nowS() - 400, nbf: nowS() - 400, exp: nowS() - 60 }));
      expect(await reasonOf(token)).toBe('expired');
      expect((verifier as unknown as { verified: Map<string, unknown> }).verified.size).toBe(0);
    });
  });

  describe('org and error mapping', () => {
    it('answers org_mismatch (with the claims) only for an otherwise valid mandate when orgId is given', async () => {
      const token = await sign();
      expect(await verify(token, AUD, 'org_1')).toMatchObject({ ok: true });
      expect(await verify(token, AUD, 'org_2')).toMatchObject({ ok: false, reason: 'org_mismatch', claims: { org: 'org_1' } });
      expect(await verify(token, 'other', 'org_2')).toEqual({ ok: false, reason: 'audience' });
    });

    it('requireMandate maps verdicts to 401 mandate_invalid / 403 mandate_org_mismatch', async () => {
      const token = await sign();
      expect(requireMandate(await verify(token)).org).toBe('org_1');
      expect(() => requireMandate({ ok: false, reason: 'expired' })).toThrow(
        expect.objectContaining({ kind: 'unauthenticated', code: 'mandate_invalid', reason: 'expired' }),
      );
      expect(() => requireMandate({ ok: false, reason: 'org_mismatch', claims: {} } as MandateVerification)).toThrow(
        expect.objectContaining({ kind: 'forbidden', code: 'mandate_org_mismatch' }),
      );
      expect(mandateInvalid('signature')).toBeInstanceOf(AppError);
    });
  });
});
