import { afterAttempt } from './delivery';
import { DEFAULT_RETRY_SCHEDULE_S } from './retry-schedule';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const plus = (s: number) => new Date(NOW.getTime() + s * 1000);
const S = DEFAULT_RETRY_SCHEDULE_S;

describe('afterAttempt', () => {
  it.each([200, 202, 204])('%i succeeds: delivered now, nothing more to do', (status) => {
    expect(afterAttempt(2, { status, retryAfterS: 60 }, S, NOW)).toEqual({
      status: 'succeeded',
      attempts: 3,
      lastResponseCode: status,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: NOW,
      disableWebhook: false,
    });
  });

  it('410 fails the delivery and disables the webhook, even on the last attempt', () => {
    const expected = {
      status: 'failed',
      lastResponseCode: 410,
      nextAttemptAt: null,
      deliveredAt: null,
      disableWebhook: true,
      lastError: expect.stringContaining('410'),
    };
    expect(afterAttempt(0, { status: 410, retryAfterS: null }, S, NOW)).toEqual({ ...expected, attempts: 1 });
    expect(afterAttempt(6, { status: 410, retryAfterS: null }, S, NOW)).toEqual({ ...expected, attempts: 7 });
  });

  it('a non-2xx answer is retried on the schedule, with the code as the error', () => {
    expect(afterAttempt(0, { status: 503, retryAfterS: null }, S, NOW)).toEqual({
      status: 'pending',
      attempts: 1,
      lastResponseCode: 503,
      lastError: 'endpoint answered 503',
      nextAttemptAt: plus(5),
      deliveredAt: null,
      disableWebhook: false,
    });
    expect(afterAttempt(1, { status: 302, retryAfterS: null }, S, NOW)).toMatchObject({
      status: 'pending',
      attempts: 2,
      lastResponseCode: 302,
      nextAttemptAt: plus(300),
    });
    expect(afterAttempt(4, { status: 404, retryAfterS: null }, S, NOW)).toMatchObject({ status: 'pending', attempts: 5, nextAttemptAt: plus(18000) });
  });

  it('honours Retry-After when it asks for longer than the schedule, not when shorter', () => {
    expect(afterAttempt(0, { status: 429, retryAfterS: 600 }, S, NOW).nextAttemptAt).toEqual(plus(600));
    expect(afterAttempt(2, { status: 429, retryAfterS: 600 }, S, NOW).nextAttemptAt).toEqual(plus(1800));
  });

  it('no answer is retried with its error', () => {
    expect(afterAttempt(3, { status: null, error: 'no answer within 10000 ms' }, S, NOW)).toEqual({
      status: 'pending',
      attempts: 4,
      lastResponseCode: null,
      lastError: 'no answer within 10000 ms',
      nextAttemptAt: plus(7200),
      deliveredAt: null,
      disableWebhook: false,
    });
  });

  it('walks the whole schedule, and the attempt after the last retry exhausts the delivery', () => {
    let attempts = 0;
    const times: (Date | null)[] = [];
    let outcome = afterAttempt(attempts, { status: 500, retryAfterS: null }, S, NOW);
    while (outcome.status === 'pending') {
      times.push(outcome.nextAttemptAt);
      attempts = outcome.attempts;
      outcome = afterAttempt(attempts, { status: 500, retryAfterS: null }, S, NOW);
    }
    expect(times).toEqual(S.map(plus));
    expect(outcome).toEqual({
      status: 'exhausted',
      attempts: 7,
      lastResponseCode: 500,
      lastError: 'endpoint answered 500',
      nextAttemptAt: null,
      deliveredAt: null,
      disableWebhook: false,
    });
    expect(afterAttempt(6, { status: null, error: 'ECONNREFUSED' }, S, NOW)).toMatchObject({
      status: 'exhausted',
      attempts: 7,
      lastError: 'ECONNREFUSED',
      nextAttemptAt: null,
    });
  });

  it('a success on the last attempt still succeeds', () => {
    expect(afterAttempt(6, { status: 200, retryAfterS: null }, S, NOW)).toMatchObject({ status: 'succeeded', attempts: 7, deliveredAt: NOW });
  });

  it('truncates a long error text to 500 characters', () => {
    const outcome = afterAttempt(0, { status: null, error: 'x'.repeat(5000) }, S, NOW);
    expect(outcome.lastError).toBe('x'.repeat(500));
    expect(afterAttempt(0, { status: null, error: 'short' }, S, NOW).lastError).toBe('short');
  });

  it('an empty schedule exhausts after the first failure', () => {
    expect(afterAttempt(0, { status: 500, retryAfterS: 5 }, [], NOW)).toMatchObject({ status: 'exhausted', attempts: 1, nextAttemptAt: null });
  });
});
