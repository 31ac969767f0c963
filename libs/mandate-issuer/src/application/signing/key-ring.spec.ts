import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { AppError, DependencyUnavailableError, FixedClock } from '@igw/kernel';
// The drill runs on the real crypto edge (RSA keys sealed under a real KEK, RS256 by jose):
// eslint-disable-next-line no-restricted-imports
import { KeyEncryption } from '../../adapters/crypto/key-encryption';
// eslint-disable-next-line no-restricted-imports
import { RsaMandateSigning } from '../../adapters/crypto/rsa-mandate-signing';
import type { MandateClaims } from '../../domain/mandate';
import { DEFAULT_KEY_SCHEDULE, JWKS_MAX_AGE_SECONDS, KEY_PUBLISH_LEAD_SECONDS, type KeySchedulePolicy } from '../../domain/signing-key-schedule';
import { InMemorySigningKeyRepository } from '../testing/in-memory-signing-key.repository.fake';
import { KeyRing, type Jwks } from './key-ring';

jest.setTimeout(60_000);

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
/** Rotate every 10 minutes instead of 30 days; publication lead and retirement grace as in production. */
const ROTATION_SECONDS = 600;
const policy: KeySchedulePolicy = { ...DEFAULT_KEY_SCHEDULE, rotationIntervalSeconds: ROTATION_SECONDS };
const AUDIENCE = 'crm-api';
const ISSUER = 'intent-gateway';

let jti = 0;
function claims(now: Date, ttlSeconds: number): MandateClaims {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: ISSUER,
    sub: 'agent:drill',
    aud: AUDIENCE,
    org: 'org_drill',
    intent_id: 'crm',
    prompt_id: 'prm_drill',
    scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'], forbidden_operations: [] },
    ctx: {},
    iat,
    nbf: iat,
    exp: iat + ttlSeconds,
    jti: `cred_drill_${++jti}`,
  };
}

/** A verifier holding `jwks` (as fetched from the public endpoint) at `now`. */
const verify = (token: string, jwks: Jwks, now: Date) =>
  jwtVerify(token, createLocalJWKSet(structuredClone(jwks.body)), {
    algorithms: ['RS256'],
    typ: 'mandate+jwt',
    issuer: ISSUER,
    audience: AUDIENCE,
    currentDate: now,
  });

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

const rings: KeyRing[] = [];

/** One replica: its own KEK-bound signing and key ring, over a (possibly shared) store and clock. */
function replica(options: { kek?: Buffer; repo?: InMemorySigningKeyRepository; clock?: FixedClock } = {}) {
  const kek = options.kek ?? randomBytes(32);
  const repo = options.repo ?? new InMemorySigningKeyRepository();
  const clock = options.clock ?? new FixedClock(new Date(T0));
  const signing = new RsaMandateSigning(new KeyEncryption(kek));
  const ring = new KeyRing(repo, signing, clock, { policy, reloadMs: 3_600_000, rotateCheckMs: 3_600_000 });
  rings.push(ring);
  return { kek, repo, clock, signing, ring };
}

beforeAll(() => {
  for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
});
afterEach(() => {
  for (const ring of rings.splice(0)) ring.onModuleDestroy();
});

describe('KeyRing', () => {
  it('first start on an empty store creates one key that signs at once; the JWKS publishes only its public half, with an ETag', async () => {
    const a = replica();
    await a.ring.start();
    expect(a.repo.rows.size).toBe(1);
    const [stored] = a.repo.snapshot();
    expect(stored).toMatchObject({ createdAt: new Date(T0), activatesAt: new Date(T0), retiredAt: null, lastExpiry: null, kekId: a.signing.kekId });
    expect(stored!.privateKeySealed).not.toContain('PRIVATE');

    const key = a.ring.signer();
    expect(key.kid).toBe(stored!.kid);
    const jwks = a.ring.jwks();
    expect(jwks.body).toEqual({ keys: [{ kty: 'RSA', kid: key.kid, alg: 'RS256', use: 'sig', n: expect.any(String), e: 'AQAB' }] });
    expect(Buffer.from(jwks.body.keys[0]!.n, 'base64url').length).toBeGreaterThanOrEqual(256);
    expect(jwks.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    const token = await a.ring.sign(claims(a.clock.now(), 300), key);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'mandate+jwt', kid: key.kid });
    const { payload } = await verify(token, a.ring.jwks(), a.clock.now());
    expect(payload).toMatchObject({ iss: ISSUER, aud: AUDIENCE, exp: T0 / 1000 + 300 });
    // `sign` recorded how long the key must stay published.
    expect(a.repo.snapshot()[0]!.lastExpiry!.getTime()).toBeGreaterThanOrEqual(T0 + 300_000);

    // Same key set, same ETag: over time, after recording an expiry, and on another replica.
    a.clock.advance(5_000);
    expect(a.ring.jwks().etag).toBe(jwks.etag);
    const b = replica({ kek: a.kek, repo: a.repo, clock: a.clock });
    await b.ring.start();
    expect(a.repo.rows.size).toBe(1);
    expect(b.ring.jwks()).toEqual(a.ring.jwks());
    expect(b.ring.signer().kid).toBe(key.kid);
  });

  it('rotation drill: every new key is published ≥ 60 s before it signs, both keys verify during the overlap, a retired key stays published until its last mandate expired and then goes', async () => {
    const a = replica();
    // A second replica that never rotates, only reloads what the first one stored (every 10 s).
    const b = replica({ kek: a.kek, repo: a.repo, clock: a.clock });
    await a.ring.start();
    await b.ring.reload();

    const STEP = 5;
    const END = 4.5 * ROTATION_SECONDS;
    /** The rotator runs once a minute, not aligned with the minute (so deleting a key lags its unpublication). */
    const rotatesAt = (t: number) => t % 60 === 25;
    /** A mandate signed by the first key shortly before it retires, living well beyond its retirement. */
    const LONG_AT = ROTATION_SECONDS - 10;
    const LONG_TTL = 1500;
    const snapshots: { t: number; kids: Set<string> }[] = [];
    const firstPublished = new Map<string, number>();
    const lastPublished = new Map<string, number>();
    const firstSigned = new Map<string, number>();
    const lastMeta = new Map<string, { retiredAt: Date | null; lastExpiry: Date | null }>();
    const issued: { token: string; kid: string; exp: number }[] = [];
    const signers: string[] = [];
    let longLived: { token: string; kid: string; exp: number } | null = null;
    const overlaps: { old: string; new: string; t: number }[] = [];
    const etags = new Set<string>();
    let previous: { kids: Set<string>; etag: string } | null = null;

    for (let t = 0; t <= END; t += STEP) {
      if (t > 0) {
        a.clock.advance(STEP * 1000);
        if (rotatesAt(t)) await a.ring.rotate();
        if (t % 10 === 0) await b.ring.reload();
      }
      const now = a.clock.now();
      const jwks = a.ring.jwks();
      const kids = new Set(jwks.body.keys.map((k) => k.kid));
      // Replicas converge: right after a reload, the other replica publishes exactly the same document.
      if (t % 10 === 0) expect(b.ring.jwks()).toEqual(jwks);
      etags.add(jwks.etag);

      // The ETag changes exactly when the published key set does; a key that left never returns.
      if (previous) {
        const prev = previous;
        const same = kids.size === prev.kids.size && [...kids].every((k) => prev.kids.has(k));
        expect(jwks.etag === prev.etag).toBe(same);
        for (const kid of kids) if (!prev.kids.has(kid)) expect(firstPublished.has(kid)).toBe(false);
      }
      previous = { kids, etag: jwks.etag };
      for (const kid of kids) {
        if (!firstPublished.has(kid)) firstPublished.set(kid, t);
        lastPublished.set(kid, t);
      }
      for (const k of a.ring.known()) lastMeta.set(k.kid, { retiredAt: k.retiredAt, lastExpiry: k.lastExpiry });
      snapshots.push({ t, kids }, { t, kids: new Set(b.ring.jwks().body.keys.map((k) => k.kid)) });

      const key = a.ring.signer();
      expect(b.ring.signer().kid).toBe(key.kid);
      if (!firstSigned.has(key.kid)) firstSigned.set(key.kid, t);
      // Any JWKS copy a verifier fetched from either replica in the last 60 s (its max-age) already holds the signer.
      for (const s of snapshots) if (s.t >= t - JWKS_MAX_AGE_SECONDS) expect(s.kids.has(key.kid)).toBe(true);

      const ttl = t === LONG_AT ? LONG_TTL : 300;
      const token = await a.ring.sign(claims(now, ttl), key);
      const mandate = { token, kid: key.kid, exp: t + ttl };
      if (ttl === LONG_TTL) longLived = mandate;

      // The signer changed: a mandate of the old key and one of the new verify against the same JWKS.
      const before = signers.at(-1);
      if (before !== undefined && before !== key.kid) {
        const old = [...issued].reverse().find((m) => m.kid === before)!;
        await expect(verify(old.token, jwks, now)).resolves.toMatchObject({ protectedHeader: { kid: before } });
        await expect(verify(token, a.ring.jwks(), now)).resolves.toMatchObject({ protectedHeader: { kid: key.kid } });
        overlaps.push({ old: before, new: key.kid, t });
      }
      if (before !== key.kid) signers.push(key.kid);
      issued.push(mandate);

      // Every mandate not yet expired can be verified: its key is published.
      for (const m of issued) if (m.exp > t) expect(kids.has(m.kid)).toBe(true);
      // The long-lived one, signed by a key retired long ago, still verifies in its last seconds.
      if (longLived && t === longLived.exp - STEP) {
        await expect(verify(longLived.token, jwks, now)).resolves.toMatchObject({ protectedHeader: { kid: signers[0] } });
      }
    }

    // One signer per rotation interval, each change checked with both keys.
    expect(signers).toHaveLength(5);
    expect(longLived!.kid).toBe(signers[0]);
    expect(overlaps.map((o) => o.t)).toEqual(signers.slice(1).map((kid) => firstSigned.get(kid)));
    expect(etags.size).toBeGreaterThanOrEqual(5);

    // The first key signs at once; every later key is published the full lead (≥ the JWKS max-age) before it signs.
    expect(firstSigned.get(signers[0]!)).toBe(0);
    for (const kid of signers.slice(1)) {
      const lead = firstSigned.get(kid)! - firstPublished.get(kid)!;
      expect(lead).toBeGreaterThanOrEqual(JWKS_MAX_AGE_SECONDS);
      expect(lead).toBe(KEY_PUBLISH_LEAD_SECONDS);
    }

    // Retired keys left the JWKS after the last mandate they signed had expired: exactly at their
    // recorded last expiry (≥ that exp) plus the grace, not when the rotator got round to deleting
    // them; and they are gone from the store.
    const gone = signers.filter((kid) => lastPublished.get(kid)! < END);
    expect(gone).toEqual(signers.slice(0, 3));
    for (const kid of gone) {
      const leftAt = lastPublished.get(kid)! + STEP;
      const lastExp = Math.max(...issued.filter((m) => m.kid === kid).map((m) => m.exp));
      expect(leftAt).toBeGreaterThan(lastExp);
      const meta = lastMeta.get(kid)!;
      expect(meta.retiredAt).not.toBeNull();
      expect(meta.lastExpiry!.getTime()).toBeGreaterThanOrEqual(T0 + lastExp * 1000);
      const unpublishAt = (Math.max(meta.retiredAt!.getTime(), meta.lastExpiry!.getTime()) - T0) / 1000 + policy.retiredGraceSeconds;
      expect(leftAt).toBe(Math.ceil(unpublishAt / STEP) * STEP);
      expect(a.repo.rows.has(kid)).toBe(false);
      expect(a.ring.known().some((k) => k.kid === kid)).toBe(false);
    }
    // The first key outlived the second because of the long-lived mandate it signed.
    expect(lastPublished.get(signers[0]!)!).toBeGreaterThanOrEqual(longLived!.exp);
    expect(lastPublished.get(signers[0]!)!).toBeGreaterThan(lastPublished.get(signers[1]!)!);
    // Once expired and unpublished, the old mandate verifies no more.
    await expect(verify(longLived!.token, a.ring.jwks(), a.clock.now())).rejects.toBeDefined();
  });

  it('refuses a token whose kid is not in the ring, and one that names a ring kid but was signed by another key', async () => {
    const a = replica();
    await a.ring.start();
    const now = a.clock.now();
    const stranger = await a.signing.generate();
    const strangerKey = a.signing.open(stranger.kid, stranger.privateKeySealed);

    const unknownKid = await a.signing.sign(claims(now, 300), strangerKey);
    expect(decodeProtectedHeader(unknownKid).kid).toBe(stranger.kid);
    await expect(verify(unknownKid, a.ring.jwks(), now)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });

    const ringKid = a.ring.signer().kid;
    const impostor = await a.signing.sign(claims(now, 300), { ...strangerKey, kid: ringKid });
    expect(decodeProtectedHeader(impostor).kid).toBe(ringKid);
    await expect(verify(impostor, a.ring.jwks(), now)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });

    const genuine = await a.ring.sign(claims(now, 300), a.ring.signer());
    await expect(verify(genuine, a.ring.jwks(), now)).resolves.toBeDefined();
  });

  it('a ring whose KEK did not seal the stored keys answers signer() with 500 signing_failed and never signs', async () => {
    const a = replica();
    await a.ring.start();
    const wrong = replica({ kek: randomBytes(32), repo: a.repo, clock: a.clock });
    const sign = jest.spyOn(wrong.signing, 'sign');
    await wrong.ring.start();
    // It found a usable-looking key set: it did not add a key of its own.
    expect(a.repo.rows.size).toBe(1);

    const err = thrown(() => wrong.ring.signer());
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'internal', code: 'signing_failed', extra: {} });
    expect((err as Error).message).not.toMatch(/KEK|key-encryption|decrypt/i);
    // Not a transient state: it stays refused, and nothing was ever signed or recorded.
    a.clock.advance(60_000);
    expect(thrown(() => wrong.ring.signer())).toMatchObject({ code: 'signing_failed' });
    expect(sign).not.toHaveBeenCalled();
    expect(a.repo.snapshot()[0]!.lastExpiry).toBeNull();
    // The public halves need no KEK: it still serves the same JWKS, and the right KEK still signs.
    expect(wrong.ring.jwks()).toEqual(a.ring.jwks());
    await expect(a.ring.sign(claims(a.clock.now(), 300), a.ring.signer())).resolves.toEqual(expect.any(String));
  });

  it('an unloaded ring answers signing_failed (and 503 for the JWKS); an empty one signing_failed; a failed start leaves it unloaded', async () => {
    const a = replica();
    expect(thrown(() => a.ring.signer())).toMatchObject({ kind: 'internal', code: 'signing_failed' });
    expect(thrown(() => a.ring.jwks())).toBeInstanceOf(DependencyUnavailableError);

    await a.ring.reload();
    expect(a.repo.rows.size).toBe(0);
    expect(thrown(() => a.ring.signer())).toMatchObject({ kind: 'internal', code: 'signing_failed' });
    expect(a.ring.jwks().body).toEqual({ keys: [] });

    const b = replica();
    b.repo.failNext.rotate = new DependencyUnavailableError('database');
    await expect(b.ring.start()).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(thrown(() => b.ring.signer())).toMatchObject({ code: 'signing_failed' });
    expect(b.repo.rows.size).toBe(0);
  });

  it('hands out no token whose key could be unpublished early: sign rejects while the expiry cannot be recorded', async () => {
    const a = replica();
    await a.ring.start();
    const key = a.ring.signer();
    a.repo.failNext.recordExpiry = new DependencyUnavailableError('database');
    await expect(a.ring.sign(claims(a.clock.now(), 900), key)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(a.repo.snapshot()[0]!.lastExpiry).toBeNull();
    await a.ring.sign(claims(a.clock.now(), 900), key);
    expect(a.repo.snapshot()[0]!.lastExpiry!.getTime()).toBeGreaterThanOrEqual(T0 + 900_000);
  });

  it('replicas starting or rotating at the same moment add one key between them', async () => {
    const a = replica();
    const b = replica({ kek: a.kek, repo: a.repo, clock: a.clock });
    await Promise.all([a.ring.start(), b.ring.start()]);
    expect(a.repo.rows.size).toBe(1);
    expect(b.ring.signer().kid).toBe(a.ring.signer().kid);

    a.clock.advance((ROTATION_SECONDS - KEY_PUBLISH_LEAD_SECONDS) * 1000);
    await Promise.all([a.ring.rotate(), b.ring.rotate()]);
    expect(a.repo.rows.size).toBe(2);
    expect(b.ring.jwks()).toEqual(a.ring.jwks());
    expect(a.ring.jwks().body.keys).toHaveLength(2);
    // Published, not yet signing.
    expect(a.ring.signer().kid).toBe(a.repo.snapshot()[0]!.kid);
  });
});
