import { AppError } from '@igw/kernel';
import {
  dispenseWindow,
  effectiveTtlSeconds,
  fromEpochSeconds,
  MANDATE_MAX_LIFETIME_SECONDS,
  MANDATE_REFRESH_COOLDOWN_SECONDS,
  MANDATE_TTL_SECONDS,
  refreshCooldownSeconds,
  refreshedExpiry,
  toEpochSeconds,
} from './mandate-ttl';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('effectiveTtlSeconds', () => {
  it('defaults to 300 and clamps to min(3600, card max)', () => {
    expect(MANDATE_TTL_SECONDS).toEqual({ default: 300, min: 1, max: 3600 });
    expect(effectiveTtlSeconds(undefined, 3600)).toBe(300);
    expect(effectiveTtlSeconds(null, 3600)).toBe(300);
    expect(effectiveTtlSeconds(undefined, 60)).toBe(60);
    expect(effectiveTtlSeconds(120, 3600)).toBe(120);
    expect(effectiveTtlSeconds(7200, 3600)).toBe(3600);
    expect(effectiveTtlSeconds(1e12, 3600)).toBe(3600);
    expect(effectiveTtlSeconds(900, 600)).toBe(600);
    expect(effectiveTtlSeconds(1, 600)).toBe(1);
  });

  it.each([0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '60' as unknown as number])('refuses ttl %p with 400 naming ttl_seconds', (ttl) => {
    let err: unknown;
    try {
      effectiveTtlSeconds(ttl, 3600);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_request');
    expect(((err as AppError).extra['details'] as { path: string }[])[0]!.path).toBe('ttl_seconds');
  });

  it('treats a card maximum that is not a positive integer as a programming error', () => {
    expect(() => effectiveTtlSeconds(60, 0)).toThrow(RangeError);
    expect(() => effectiveTtlSeconds(60, 1.5)).toThrow(RangeError);
  });
});

describe('dispenseWindow', () => {
  it('issues at the whole second of now and expires ttl seconds later', () => {
    const { issuedAt, expiresAt } = dispenseWindow(new Date(t0.getTime() + 999), 300);
    expect(issuedAt).toEqual(t0);
    expect(expiresAt).toEqual(at(300));
    expect(toEpochSeconds(expiresAt) - toEpochSeconds(issuedAt)).toBe(300);
    expect(fromEpochSeconds(toEpochSeconds(t0))).toEqual(t0);
  });
});

describe('refreshedExpiry', () => {
  it('is now + ttl', () => {
    expect(refreshedExpiry({ issuedAt: t0, expiresAt: at(300), now: at(200), ttlSeconds: 300 })).toEqual(at(500));
  });

  it('truncates now to the second', () => {
    expect(refreshedExpiry({ issuedAt: t0, expiresAt: at(300), now: new Date(at(200).getTime() + 700), ttlSeconds: 300 })).toEqual(at(500));
  });

  it('never goes beyond 24 h after the first issue', () => {
    expect(MANDATE_MAX_LIFETIME_SECONDS).toBe(86_400);
    const nearEnd = at(MANDATE_MAX_LIFETIME_SECONDS - 100);
    expect(refreshedExpiry({ issuedAt: t0, expiresAt: at(MANDATE_MAX_LIFETIME_SECONDS - 50), now: nearEnd, ttlSeconds: 3600 })).toEqual(
      at(MANDATE_MAX_LIFETIME_SECONDS),
    );
  });

  it('never moves the expiry earlier', () => {
    expect(refreshedExpiry({ issuedAt: t0, expiresAt: at(3600), now: at(10), ttlSeconds: 60 })).toEqual(at(3600));
  });
});

describe('refreshCooldownSeconds', () => {
  it('is 0 for a mandate never refreshed', () => {
    expect(refreshCooldownSeconds(null, t0)).toBe(0);
  });

  it('counts whole seconds up from the exact last refresh, 0 from 10 s on', () => {
    expect(MANDATE_REFRESH_COOLDOWN_SECONDS).toBe(10);
    expect(refreshCooldownSeconds(t0, t0)).toBe(10);
    expect(refreshCooldownSeconds(t0, new Date(t0.getTime() + 1))).toBe(10);
    expect(refreshCooldownSeconds(t0, new Date(t0.getTime() + 9_001))).toBe(1);
    expect(refreshCooldownSeconds(t0, at(10))).toBe(0);
    expect(refreshCooldownSeconds(t0, at(60))).toBe(0);
  });
});
