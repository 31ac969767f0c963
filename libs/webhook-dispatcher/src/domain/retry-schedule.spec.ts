import { DEFAULT_RETRY_SCHEDULE_S, MAX_RETRY_AFTER_S, nextAttemptAt, parseRetryAfter, parseRetrySchedule, verdictOf } from './retry-schedule';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const plus = (s: number) => new Date(NOW.getTime() + s * 1000);

describe('verdictOf', () => {
  it.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(verdictOf(status)).toBe('delivered');
  });

  it('410 Gone disables the endpoint', () => {
    expect(verdictOf(410)).toBe('gone');
  });

  it.each([100, 199, 300, 301, 302, 304, 400, 401, 403, 404, 408, 409, 429, 500, 502, 503, 504])('%i is retried', (status) => {
    expect(verdictOf(status)).toBe('retry');
  });

  it('no answer (null) is retried', () => {
    expect(verdictOf(null)).toBe('retry');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds (with surrounding whitespace)', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter('  30 ', NOW)).toBe(30);
  });

  it('is null when absent', () => {
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
  });

  it('reads an HTTP-date in the future as the seconds until then (rounded up)', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 10:02:00 GMT', NOW)).toBe(120);
    expect(parseRetryAfter(new Date(NOW.getTime() + 90_000).toUTCString(), NOW)).toBe(90);
    expect(parseRetryAfter('Sun, 01 Mar 2026 10:00:00 GMT', new Date(NOW.getTime() - 1500))).toBe(2);
  });

  it('reads an HTTP-date in the past as 0', () => {
    expect(parseRetryAfter('Sat, 28 Feb 2026 10:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', NOW)).toBe(0);
  });

  it.each(['', '   ', 'soon', '-5', '1.5', '5s', '0x10', 'tomorrow', '2026-03-01T10:02:00Z', 'Xyz, 99 Foo 2026 99:99:99 GMT', '12345678901'])(
    'is null for garbage %p',
    (text) => {
      expect(parseRetryAfter(text, NOW)).toBeNull();
    },
  );

  it('caps at 24 h, in both forms', () => {
    expect(MAX_RETRY_AFTER_S).toBe(86_400);
    expect(parseRetryAfter('86400', NOW)).toBe(86_400);
    expect(parseRetryAfter('86401', NOW)).toBe(86_400);
    expect(parseRetryAfter('9999999999', NOW)).toBe(86_400);
    expect(parseRetryAfter(new Date(NOW.getTime() + 30 * 86_400_000).toUTCString(), NOW)).toBe(86_400);
  });
});

describe('nextAttemptAt', () => {
  it('DEFAULT_RETRY_SCHEDULE_S is DESIGN 6.11: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_S).toEqual([5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600]);
  });

  it('follows the schedule after each failed attempt and is null after the 6th retry (7 attempts in all)', () => {
    const at = [1, 2, 3, 4, 5, 6].map((n) => nextAttemptAt(n, DEFAULT_RETRY_SCHEDULE_S, NOW));
    expect(at).toEqual([plus(5), plus(300), plus(1800), plus(7200), plus(18000), plus(36000)]);
    expect(nextAttemptAt(7, DEFAULT_RETRY_SCHEDULE_S, NOW)).toBeNull();
    expect(nextAttemptAt(8, DEFAULT_RETRY_SCHEDULE_S, NOW)).toBeNull();
    expect(nextAttemptAt(7, DEFAULT_RETRY_SCHEDULE_S, NOW, 60)).toBeNull();
  });

  it('a Retry-After longer than the schedule wins', () => {
    expect(nextAttemptAt(1, DEFAULT_RETRY_SCHEDULE_S, NOW, 120)).toEqual(plus(120));
    expect(nextAttemptAt(2, DEFAULT_RETRY_SCHEDULE_S, NOW, 3600)).toEqual(plus(3600));
  });

  it('a Retry-After shorter than the schedule never makes the retry earlier', () => {
    expect(nextAttemptAt(1, DEFAULT_RETRY_SCHEDULE_S, NOW, 1)).toEqual(plus(5));
    expect(nextAttemptAt(3, DEFAULT_RETRY_SCHEDULE_S, NOW, 0)).toEqual(plus(1800));
    expect(nextAttemptAt(3, DEFAULT_RETRY_SCHEDULE_S, NOW, null)).toEqual(plus(1800));
  });

  it('works with any schedule, including fractions of a second', () => {
    expect(nextAttemptAt(1, [0.05, 0.1], NOW)).toEqual(new Date(NOW.getTime() + 50));
    expect(nextAttemptAt(2, [0.05, 0.1], NOW)).toEqual(new Date(NOW.getTime() + 100));
    expect(nextAttemptAt(3, [0.05, 0.1], NOW)).toBeNull();
    expect(nextAttemptAt(1, [], NOW)).toBeNull();
  });
});

describe('parseRetrySchedule', () => {
  it('reads the default schedule', () => {
    expect(parseRetrySchedule('5s,5m,30m,2h,5h,10h')).toEqual([...DEFAULT_RETRY_SCHEDULE_S]);
  });

  it('reads every unit, bare seconds, fractions and whitespace', () => {
    expect(parseRetrySchedule('250ms, 2, 1.5s ,1m,1h')).toEqual([0.25, 2, 1.5, 60, 3600]);
    expect(parseRetrySchedule('7')).toEqual([7]);
    expect(parseRetrySchedule('168h')).toEqual([7 * 24 * 3600]);
  });

  it.each([
    ['', '""'],
    ['5s,', '""'],
    ['5x', '"5x"'],
    ['five', '"five"'],
    ['-5s', '"-5s"'],
    ['5 s', '"5 s"'],
    ['1d', '"1d"'],
  ])('rejects %p naming the entry (%s)', (text, entry) => {
    expect(() => parseRetrySchedule(text)).toThrow(RangeError);
    expect(() => parseRetrySchedule(text)).toThrow(`${entry} is not a duration`);
  });

  it.each(['0s', '0', '0ms', '169h', '5s,10081m'])('rejects %p as out of range', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow(RangeError);
    expect(() => parseRetrySchedule(text)).toThrow(/must be more than 0 and at most 7 days/);
  });
});
