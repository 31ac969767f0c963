import { afterAttempt } from './delivery';
import { leasePlan, MAX_LEASED_PER_WEBHOOK } from './delivery-fairness';
import { disableAfter } from './webhook-gone';

const now = new Date('2026-01-01T00:00:00Z');

describe('webhook rules the store executes', () => {
  it('a 410 disables the webhook, any other answer does not', () => {
    expect(disableAfter(afterAttempt(0, { status: 410, retryAfterS: null }, [1], now))).toEqual({
      status: 'disabled',
      reason: 'the endpoint answered 410 Gone',
    });
    expect(disableAfter(afterAttempt(0, { status: 500, retryAfterS: null }, [1], now))).toBeNull();
    expect(disableAfter(afterAttempt(0, { status: 200, retryAfterS: null }, [1], now))).toBeNull();
  });

  it('a leasing round caps attempts per webhook and ranks a bounded window', () => {
    expect(leasePlan(100)).toEqual({ limit: 100, perWebhookCap: MAX_LEASED_PER_WEBHOOK, candidates: 300 });
  });
});
