import {
  applyKeySchedule,
  DEFAULT_KEY_SCHEDULE,
  isDeletable,
  isPublished,
  JWKS_MAX_AGE_SECONDS,
  KEY_PUBLISH_LEAD_SECONDS,
  KEY_RETIRED_GRACE_SECONDS,
  KEY_ROTATION_INTERVAL_SECONDS,
  planKeySchedule,
  publishedKeys,
  recordSignature,
  rotationDueAt,
  signingKey,
  unpublishAt,
  type KeySchedulePolicy,
  type SigningKeyMeta,
} from './signing-key-schedule';

const t0 = new Date('2026-03-01T00:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const key = (kid: string, extra: Partial<SigningKeyMeta> = {}): SigningKeyMeta => ({
  kid,
  createdAt: at(0),
  activatesAt: at(0),
  retiredAt: null,
  lastExpiry: null,
  ...extra,
});
const kids = (keys: SigningKeyMeta[]) => keys.map((k) => k.kid);
const DAY = 24 * 3600;

describe('timings', () => {
  it('publishes a key for the JWKS max-age plus margin before it signs, and keeps a retired one 2 min past its last expiry', () => {
    expect(JWKS_MAX_AGE_SECONDS).toBe(60);
    expect(KEY_PUBLISH_LEAD_SECONDS).toBe(90);
    expect(KEY_RETIRED_GRACE_SECONDS).toBe(120);
    expect(KEY_ROTATION_INTERVAL_SECONDS).toBe(30 * DAY);
    expect(DEFAULT_KEY_SCHEDULE).toEqual({ rotationIntervalSeconds: 30 * DAY, publishLeadSeconds: 90, retiredGraceSeconds: 120 });
  });
});

describe('signingKey', () => {
  it('is the newest activated, unretired key', () => {
    const keys = [
      key('old', { activatesAt: at(0), retiredAt: at(100) }),
      key('current', { activatesAt: at(100) }),
      key('next', { createdAt: at(200), activatesAt: at(500) }),
    ];
    expect(signingKey(keys, at(50))?.kid).toBe('old');
    expect(signingKey(keys, at(100))?.kid).toBe('current');
    expect(signingKey(keys, at(499))?.kid).toBe('current');
    expect(signingKey(keys, at(500))?.kid).toBe('next');
  });

  it('is null before any activation, or when every key is retired', () => {
    expect(signingKey([key('a', { activatesAt: at(90) })], at(89))).toBeNull();
    expect(signingKey([key('a', { retiredAt: at(10) })], at(10))).toBeNull();
    expect(signingKey([], at(0))).toBeNull();
  });

  it('does not depend on the order of the input', () => {
    const a = key('a', { activatesAt: at(10) });
    const b = key('b', { activatesAt: at(10) });
    expect(signingKey([a, b], at(20))?.kid).toBe(signingKey([b, a], at(20))?.kid);
  });
});

describe('publication', () => {
  it('publishes a key from creation, before it signs', () => {
    const next = key('next', { createdAt: at(100), activatesAt: at(190) });
    expect(isPublished(next, at(99))).toBe(false);
    expect(isPublished(next, at(100))).toBe(true);
    expect(signingKey([next], at(100))).toBeNull();
  });

  it('keeps a retired key until max(last expiry, retirement) + grace, then lets it be deleted', () => {
    const retired = key('r', { retiredAt: at(1000), lastExpiry: at(4000) });
    expect(unpublishAt(retired)).toEqual(at(4000 + KEY_RETIRED_GRACE_SECONDS));
    expect(isPublished(retired, at(4000 + KEY_RETIRED_GRACE_SECONDS - 1))).toBe(true);
    expect(isDeletable(retired, at(4000 + KEY_RETIRED_GRACE_SECONDS - 1))).toBe(false);
    expect(isPublished(retired, at(4000 + KEY_RETIRED_GRACE_SECONDS))).toBe(false);
    expect(isDeletable(retired, at(4000 + KEY_RETIRED_GRACE_SECONDS))).toBe(true);
    const neverSigned = key('n', { retiredAt: at(1000) });
    expect(unpublishAt(neverSigned)).toEqual(at(1000 + KEY_RETIRED_GRACE_SECONDS));
    const signedLongAgo = key('s', { retiredAt: at(1000), lastExpiry: at(10) });
    expect(unpublishAt(signedLongAgo)).toEqual(at(1000 + KEY_RETIRED_GRACE_SECONDS));
  });

  it('never unpublishes or deletes an unretired key', () => {
    const k = key('k', { lastExpiry: at(10) });
    expect(unpublishAt(k)).toBeNull();
    expect(isPublished(k, at(10 * DAY))).toBe(true);
    expect(isDeletable(k, at(10 * DAY))).toBe(false);
  });

  it('lists published keys newest first', () => {
    const keys = [key('a', { createdAt: at(0), retiredAt: at(10) }), key('c', { createdAt: at(20) }), key('b', { createdAt: at(10) })];
    expect(kids(publishedKeys(keys, at(30)))).toEqual(['c', 'b', 'a']);
    expect(kids(publishedKeys(keys, at(10 + KEY_RETIRED_GRACE_SECONDS)))).toEqual(['c', 'b']);
  });
});

describe('recordSignature', () => {
  it('only moves the last expiry later', () => {
    const k = key('k');
    const once = recordSignature(k, at(300));
    expect(once.lastExpiry).toEqual(at(300));
    expect(recordSignature(once, at(200))).toBe(once);
    expect(recordSignature(once, at(400)).lastExpiry).toEqual(at(400));
  });
});

describe('planKeySchedule', () => {
  const policy: KeySchedulePolicy = { rotationIntervalSeconds: 3600, publishLeadSeconds: 90, retiredGraceSeconds: 120 };

  it('gives an empty store a key that signs at once', () => {
    expect(planKeySchedule([], at(0), policy)).toEqual({ create: { activatesAt: at(0) }, retire: [], delete: [] });
    const keys = applyKeySchedule([], planKeySchedule([], at(0), policy), at(0), 'k1');
    expect(signingKey(keys, at(0))?.kid).toBe('k1');
  });

  it('does nothing while the signer is not due', () => {
    const keys = [key('k1')];
    expect(planKeySchedule(keys, at(3600 - 91), policy)).toEqual({ create: null, retire: [], delete: [] });
  });

  it('creates the successor a lead time before the signer is due, activating when it is', () => {
    const keys = [key('k1')];
    expect(rotationDueAt(keys[0]!, policy)).toEqual(at(3600));
    expect(planKeySchedule(keys, at(3600 - 90), policy)).toEqual({ create: { activatesAt: at(3600) }, retire: [], delete: [] });
    // A late rotator still publishes the key for the whole lead before it signs.
    expect(planKeySchedule(keys, at(3600 - 30), policy).create).toEqual({ activatesAt: at(3600 + 60) });
    expect(planKeySchedule(keys, at(5 * 3600), policy).create).toEqual({ activatesAt: at(5 * 3600 + 90) });
  });

  it('creates nothing while a key waits to activate', () => {
    const keys = [key('k1'), key('k2', { createdAt: at(3510), activatesAt: at(3600) })];
    expect(planKeySchedule(keys, at(3550), policy).create).toBeNull();
  });

  it('retires a key as of its successor activation, then deletes it once unpublished', () => {
    let keys = [key('k1', { lastExpiry: at(3500) }), key('k2', { createdAt: at(3510), activatesAt: at(3600) })];
    const plan = planKeySchedule(keys, at(3630), policy);
    expect(plan.retire).toEqual([{ kid: 'k1', retiredAt: at(3600) }]);
    keys = applyKeySchedule(keys, plan, at(3630), null);
    expect(keys.find((k) => k.kid === 'k1')!.retiredAt).toEqual(at(3600));
    keys = keys.map((k) => (k.kid === 'k1' ? recordSignature(k, at(3600 + 3600)) : k)); // signed just before it retired
    expect(planKeySchedule(keys, at(7200 + 119), policy).delete).toEqual([]);
    expect(planKeySchedule(keys, at(7200 + 120), policy).delete).toEqual(['k1']);
    // By then k2 is due too: its successor is created in the same run.
    expect(kids(applyKeySchedule(keys, planKeySchedule(keys, at(7200 + 120), policy), at(7200 + 120), 'k3'))).toEqual(['k2', 'k3']);
  });

  it('with no signer but keys (all retired), waits the lead time rather than signing with an unpublished key', () => {
    const keys = [key('k1', { retiredAt: at(100) })];
    expect(planKeySchedule(keys, at(200), policy).create).toEqual({ activatesAt: at(290) });
  });

  it('settles two rotators that both created a successor: the later activation wins', () => {
    const keys = [key('k1'), key('k2', { createdAt: at(3510), activatesAt: at(3600) }), key('k3', { createdAt: at(3511), activatesAt: at(3601) })];
    expect(signingKey(keys, at(3700))?.kid).toBe('k3');
    expect(planKeySchedule(keys, at(3700), policy).retire).toEqual([
      { kid: 'k1', retiredAt: at(3600) },
      { kid: 'k2', retiredAt: at(3601) },
    ]);
  });

  it('applyKeySchedule needs a fresh kid when the plan creates a key', () => {
    const plan = planKeySchedule([], at(0), policy);
    expect(() => applyKeySchedule([], plan, at(0), null)).toThrow(RangeError);
    const keys = applyKeySchedule([], plan, at(0), 'k1');
    expect(() => applyKeySchedule(keys, { create: { activatesAt: at(90) }, retire: [], delete: [] }, at(0), 'k1')).toThrow(RangeError);
  });
});

describe('a simulated month of rotation, dispenses and verifiers', () => {
  it('always has a signer, signs only with keys published a cache lifetime earlier, and publishes every key while its credentials live', () => {
    const policy: KeySchedulePolicy = {
      rotationIntervalSeconds: 2 * 3600,
      publishLeadSeconds: KEY_PUBLISH_LEAD_SECONDS,
      retiredGraceSeconds: KEY_RETIRED_GRACE_SECONDS,
    };
    let keys: SigningKeyMeta[] = [];
    let next = 1;
    const issued: { kid: string; signedAt: number; exp: number }[] = [];
    let seed = 42;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const bootstrapKid = 'k1';
    let maxPublished = 0;
    const end = 3 * DAY;
    for (let s = 0; s <= end; s += 5) {
      const now = at(s);
      // The rotator runs every 30 s, except for a two-hour outage on day two.
      const down = s > 1.5 * DAY && s < 1.5 * DAY + 2 * 3600;
      if (s % 30 === 0 && !down) {
        const plan = planKeySchedule(keys, now, policy);
        keys = applyKeySchedule(keys, plan, now, plan.create ? `k${next++}` : null);
      }
      // A dispense or refresh signs with the current key.
      const signer = signingKey(keys, now);
      if (signer === null) throw new Error(`no signer at ${s}`);
      if (signer.kid !== bootstrapKid && signer.createdAt.getTime() > now.getTime() - JWKS_MAX_AGE_SECONDS * 1000) {
        throw new Error(`${signer.kid} signs at ${s} but was published only at ${signer.createdAt.toISOString()}`);
      }
      const exp = s + 1 + Math.floor(rnd() * 3600);
      issued.push({ kid: signer.kid, signedAt: s, exp });
      keys = keys.map((k) => (k.kid === signer.kid ? recordSignature(k, at(exp)) : k));
      // A verifier (clock up to 60 s behind) may check any live credential with a JWKS fetched now.
      const published = new Set(kids(publishedKeys(keys, now, policy)));
      maxPublished = Math.max(maxPublished, published.size);
      for (const c of issued) {
        if (s < c.exp + 60 && !published.has(c.kid)) throw new Error(`${c.kid} (signed at ${c.signedAt}, exp ${c.exp}) is not published at ${s}`);
      }
      if (s % 600 === 0) issued.splice(0, issued.length, ...issued.filter((c) => s < c.exp + 60));
    }
    // Rotations happened (one every two hours, fewer during the outage) and old keys were deleted.
    expect(next).toBeGreaterThan(30);
    expect(keys.length).toBeLessThanOrEqual(3);
    expect(maxPublished).toBeLessThanOrEqual(3);
  });
});
