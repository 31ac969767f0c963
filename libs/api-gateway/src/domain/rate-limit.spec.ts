import { rateLimitHeaders, retryAfterSeconds } from './rate-limit';

describe('rate limit headers', () => {
  const policy = { requestsPerSecond: 100, burst: 200 };

  it('describe the policy and what is left of each window, in whole seconds', () => {
    expect(rateLimitHeaders(policy, { allowed: true, remaining: 42, resetSeconds: 0.3, burst: { remaining: 100, resetSeconds: 10 } })).toEqual({
      'ratelimit-policy': '"default";q=100;w=1, "burst";q=100;w=10',
      ratelimit: '"default";r=42;t=1, "burst";r=100;t=10',
    });
  });

  it('count the burst pool down once the second is spent, and leave it out when it is unknown', () => {
    expect(rateLimitHeaders(policy, { allowed: true, remaining: 0, resetSeconds: 0.6, burst: { remaining: 57, resetSeconds: 8.2 } }).ratelimit).toBe(
      '"default";r=0;t=1, "burst";r=57;t=9',
    );
    expect(rateLimitHeaders(policy, { allowed: true, remaining: 3, resetSeconds: 1 }).ratelimit).toBe('"default";r=3;t=1');
  });

  it('never advertise a Retry-After below one second', () => {
    expect(retryAfterSeconds({ allowed: false, remaining: 0, resetSeconds: 0.01 })).toBe(1);
    expect(retryAfterSeconds({ allowed: false, remaining: 0, resetSeconds: 7.2 })).toBe(8);
  });
});
