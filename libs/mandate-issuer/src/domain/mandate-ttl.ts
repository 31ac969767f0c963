import { invalidRequest } from '@igw/kernel';

/**
 * How long a mandate lives (spec "Limits", DESIGN 6.8). Mandate times are whole seconds, as
 * in the JWT (`iat`, `exp`), so the record and the credential always agree.
 */
export const MANDATE_TTL_SECONDS = {
  /** When the request names no `ttl_seconds`. */
  default: 300,
  /** Smaller requests are refused (400), never raised: a client asking for less gets no more. */
  min: 1,
  /** Larger requests are clamped, as are requests beyond the card's `max_ttl_seconds`. */
  max: 3600,
} as const;

/** Refreshes never carry a mandate beyond this long after its first `issued_at`. */
export const MANDATE_MAX_LIFETIME_SECONDS = 24 * 3600;

/** At most one refresh per credential in this window (429 `cooldown` with `retry_after`). */
export const MANDATE_REFRESH_COOLDOWN_SECONDS = 10;

export const toEpochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
export const fromEpochSeconds = (seconds: number): Date => new Date(seconds * 1000);

/**
 * The TTL a dispense or refresh grants: the requested one (default 300) clamped to
 * min(3600, card max). A request that is not a positive integer is a 400 (larger ones are
 * clamped, as the spec says); a card maximum that is not one is a RangeError (a corrupt card
 * fails the request instead of widening it).
 */
export function effectiveTtlSeconds(requested: number | null | undefined, cardMaxTtlSeconds: number): number {
  if (!Number.isInteger(cardMaxTtlSeconds) || cardMaxTtlSeconds < MANDATE_TTL_SECONDS.min) {
    throw new RangeError(`card max_ttl_seconds must be a positive integer, got ${cardMaxTtlSeconds}`);
  }
  const ttl = requested ?? MANDATE_TTL_SECONDS.default;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < MANDATE_TTL_SECONDS.min) {
    const message = `ttl_seconds must be an integer of at least ${MANDATE_TTL_SECONDS.min}`;
    throw invalidRequest(message, [{ path: 'ttl_seconds', message }]);
  }
  return Math.min(ttl, MANDATE_TTL_SECONDS.max, cardMaxTtlSeconds);
}

/** `issued_at` and `expires_at` of a new mandate: `now` truncated to the second, plus the TTL. */
export function dispenseWindow(now: Date, ttlSeconds: number): { issuedAt: Date; expiresAt: Date } {
  const iat = toEpochSeconds(now);
  return { issuedAt: fromEpochSeconds(iat), expiresAt: fromEpochSeconds(iat + ttlSeconds) };
}

/**
 * The expiry after a refresh at `now`: now + ttl, but never past issued_at + 24 h, and never
 * earlier than the current expiry (the previous credential stays valid until its own `exp`
 * anyway, so moving the record's expiry earlier would only make it lie). Whole seconds.
 */
export function refreshedExpiry(input: { issuedAt: Date; expiresAt: Date; now: Date; ttlSeconds: number }): Date {
  const cap = toEpochSeconds(input.issuedAt) + MANDATE_MAX_LIFETIME_SECONDS;
  const wanted = Math.min(toEpochSeconds(input.now) + input.ttlSeconds, cap);
  return fromEpochSeconds(Math.max(wanted, toEpochSeconds(input.expiresAt)));
}

/**
 * Seconds until the credential may be refreshed again, 0 when it may now. Measured from the
 * exact time of the last refresh; a mandate never refreshed has no cooldown.
 */
export function refreshCooldownSeconds(lastRefreshedAt: Date | null, now: Date): number {
  if (lastRefreshedAt === null) return 0;
  const remainingMs = lastRefreshedAt.getTime() + MANDATE_REFRESH_COOLDOWN_SECONDS * 1000 - now.getTime();
  return remainingMs > 0 ? Math.ceil(remainingMs / 1000) : 0;
}
