/**
 * Signing-key rotation (DESIGN 6.8) as pure rules over key metadata; generating RSA keys, storing
 * them and serving the JWKS are adapters' jobs. A key's life:
 *
 *   created: published, not yet signing → activatesAt reached: the signer → superseded by a
 *   newer key: retired, still published → every credential it signed has expired: unpublished,
 *   deletable.
 *
 * - A new key is published in the JWKS from its creation and signs from `activatesAt`, at least
 *   KEY_PUBLISH_LEAD_SECONDS later: a verifier that fetched the JWKS just before the key appeared
 *   keeps that copy for JWKS_MAX_AGE_SECONDS (`Cache-Control: max-age=60`), so by then every
 *   cached copy holds it. The activation time is fixed when the key is created, so switching
 *   signer needs no write and every replica switches on its own clock. The one exception is the
 *   very first key (an empty store): nothing was ever signed, so it signs at once rather than
 *   leaving dispense failing for 90 s after the first start.
 * - The signer is the newest key whose `activatesAt` has passed and that is not retired.
 * - A key stops signing when a newer key activates; the rotator then records `retiredAt` = that
 *   activation. A retired key stays published until max(last expiry it signed, retirement) +
 *   KEY_RETIRED_GRACE_SECONDS (verifier clock skew, and dispenses that picked the key just before
 *   it retired), and may be deleted from then on. A key not yet marked retired stays published.
 *   Its private half is never needed after retirement; adapters may destroy it then.
 * - The signer is replaced every `rotationIntervalSeconds`; its successor is created
 *   `publishLeadSeconds` before that (or as soon as the rotator notices, activating no earlier
 *   than the lead allows).
 */

/** Max-age of the JWKS response (spec "Limits"). */
export const JWKS_MAX_AGE_SECONDS = 60;
/** Slack on top of the JWKS max-age for slow fetches and intermediate caches. */
export const KEY_PUBLISH_MARGIN_SECONDS = 30;
/** How long a key is published before it may sign. */
export const KEY_PUBLISH_LEAD_SECONDS = JWKS_MAX_AGE_SECONDS + KEY_PUBLISH_MARGIN_SECONDS;
/** A retired key stays published this long after the last expiry it signed: 60 s verifier clock skew + 60 s for signings in flight. */
export const KEY_RETIRED_GRACE_SECONDS = 120;
/** Default life of a signer before it is replaced. */
export const KEY_ROTATION_INTERVAL_SECONDS = 30 * 24 * 3600;

export interface KeySchedulePolicy {
  rotationIntervalSeconds: number;
  publishLeadSeconds: number;
  retiredGraceSeconds: number;
}

export const DEFAULT_KEY_SCHEDULE: KeySchedulePolicy = {
  rotationIntervalSeconds: KEY_ROTATION_INTERVAL_SECONDS,
  publishLeadSeconds: KEY_PUBLISH_LEAD_SECONDS,
  retiredGraceSeconds: KEY_RETIRED_GRACE_SECONDS,
};

export interface SigningKeyMeta {
  kid: string;
  /** Generated, and published from this moment. */
  createdAt: Date;
  /** Signs from this moment, fixed at creation (may lie in the future). */
  activatesAt: Date;
  /** Stopped signing at this moment; null while pending or signing. */
  retiredAt: Date | null;
  /** Latest `exp` of a credential it signed; null if it signed none. */
  lastExpiry: Date | null;
}

/**
 * What the rotator should do now: create a key activating at `create.activatesAt`, record the
 * retirement of superseded keys, delete keys no longer published.
 */
export interface KeySchedulePlan {
  create: { activatesAt: Date } | null;
  retire: { kid: string; retiredAt: Date }[];
  delete: string[];
}

const ms = (seconds: number) => seconds * 1000;
const byKid = (a: SigningKeyMeta, b: SigningKeyMeta) => (a.kid < b.kid ? 1 : a.kid > b.kid ? -1 : 0);
/** Newest activation first, then newest creation, then kid: never dependent on input order. */
const newestActivation = (a: SigningKeyMeta, b: SigningKeyMeta) =>
  b.activatesAt.getTime() - a.activatesAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || byKid(a, b);

const isRetired = (k: SigningKeyMeta, now: Date) => k.retiredAt !== null && k.retiredAt.getTime() <= now.getTime();
const hasActivated = (k: SigningKeyMeta, now: Date) => k.activatesAt.getTime() <= now.getTime();

/** The key that signs at `now`: the newest activated, unretired key; null when none may sign. */
export function signingKey(keys: readonly SigningKeyMeta[], now: Date): SigningKeyMeta | null {
  return keys.filter((k) => hasActivated(k, now) && !isRetired(k, now)).sort(newestActivation)[0] ?? null;
}

/** When a retired key leaves the JWKS (null while it is not retired). */
export function unpublishAt(key: SigningKeyMeta, policy: KeySchedulePolicy = DEFAULT_KEY_SCHEDULE): Date | null {
  if (key.retiredAt === null) return null;
  const last = Math.max(key.retiredAt.getTime(), key.lastExpiry?.getTime() ?? 0);
  return new Date(last + ms(policy.retiredGraceSeconds));
}

export function isPublished(key: SigningKeyMeta, now: Date, policy: KeySchedulePolicy = DEFAULT_KEY_SCHEDULE): boolean {
  if (key.createdAt.getTime() > now.getTime()) return false;
  const until = unpublishAt(key, policy);
  return until === null || now.getTime() < until.getTime();
}

/** The keys the JWKS lists at `now`, newest first: pending, signing, and retired ones still needed. */
export function publishedKeys(keys: readonly SigningKeyMeta[], now: Date, policy: KeySchedulePolicy = DEFAULT_KEY_SCHEDULE): SigningKeyMeta[] {
  return keys.filter((k) => isPublished(k, now, policy)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || byKid(a, b));
}

/** A retired key may be deleted once no longer published. */
export const isDeletable = (key: SigningKeyMeta, now: Date, policy: KeySchedulePolicy = DEFAULT_KEY_SCHEDULE): boolean =>
  key.retiredAt !== null && !isPublished(key, now, policy);

/** When the signer is due to be replaced. */
export const rotationDueAt = (signer: SigningKeyMeta, policy: KeySchedulePolicy = DEFAULT_KEY_SCHEDULE): Date =>
  new Date(signer.activatesAt.getTime() + ms(policy.rotationIntervalSeconds));

/** The key's metadata after it signed a credential expiring at `exp` (the last expiry only grows). */
export function recordSignature(key: SigningKeyMeta, exp: Date): SigningKeyMeta {
  return key.lastExpiry !== null && key.lastExpiry.getTime() >= exp.getTime() ? key : { ...key, lastExpiry: exp };
}

/**
 * What to do at `now`, for a rotator that runs periodically (any period well under the rotation
 * interval; a late run only keeps keys published longer):
 * - an empty store: create a key that signs at once;
 * - no key waiting to activate, and the signer due within the lead time (or no signer): create
 *   one activating at max(now + lead, the signer's due time);
 * - every unretired key that a newer activated key has superseded: retire it as of that
 *   activation;
 * - every retired key past its publication: delete it.
 * Two rotators racing may both create a key: the later activation wins, the other is retired.
 */
export function planKeySchedule(keys: readonly SigningKeyMeta[], now: Date, policy: KeySchedulePolicy = DEFAULT_KEY_SCHEDULE): KeySchedulePlan {
  if (keys.length === 0) return { create: { activatesAt: now }, retire: [], delete: [] };
  const t = now.getTime();
  const signer = signingKey(keys, now);
  const waiting = keys.some((k) => k.activatesAt.getTime() > t && k.retiredAt === null);
  let create: KeySchedulePlan['create'] = null;
  if (!waiting) {
    const earliest = t + ms(policy.publishLeadSeconds);
    if (signer === null) {
      create = { activatesAt: new Date(earliest) };
    } else {
      const due = rotationDueAt(signer, policy).getTime();
      if (t >= due - ms(policy.publishLeadSeconds)) create = { activatesAt: new Date(Math.max(earliest, due)) };
    }
  }
  // A key is superseded by the first key activated after it (and by now).
  const activated = keys.filter((k) => hasActivated(k, now)).sort((a, b) => -newestActivation(a, b));
  const retire: KeySchedulePlan['retire'] = [];
  activated.forEach((k, i) => {
    const successor = activated[i + 1];
    if (k.retiredAt === null && successor) retire.push({ kid: k.kid, retiredAt: successor.activatesAt });
  });
  const deletable = keys.filter((k) => isDeletable(k, now, policy)).map((k) => k.kid);
  return { create, retire, delete: deletable };
}

/** The metadata after carrying out `plan` at `now`; `newKid` names the key created, when one is. */
export function applyKeySchedule(keys: readonly SigningKeyMeta[], plan: KeySchedulePlan, now: Date, newKid: string | null): SigningKeyMeta[] {
  const retiring = new Map(plan.retire.map((r) => [r.kid, r.retiredAt]));
  const next = keys
    .filter((k) => !plan.delete.includes(k.kid))
    .map((k) => {
      const retiredAt = retiring.get(k.kid);
      return retiredAt === undefined ? k : { ...k, retiredAt };
    });
  if (plan.create !== null) {
    if (newKid === null || newKid === '') throw new RangeError('the plan creates a key: newKid is required');
    if (keys.some((k) => k.kid === newKid)) throw new RangeError(`kid ${newKid} is already used`);
    next.push({ kid: newKid, createdAt: now, activatesAt: plan.create.activatesAt, retiredAt: null, lastExpiry: null });
  }
  return next;
}
