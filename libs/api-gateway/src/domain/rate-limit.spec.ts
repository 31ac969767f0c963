import { rateLimitHeaders, retryAfterSeconds } from './rate-limit';

describe('rate limit headers', () => {
  const policy = { requestsPerSecond: 100, burst: 200 };

  it('describe the policy and what is left, in whole seconds', () => {
    expect(rateLimitHeaders(policy, { allowed: true, remaining: 42, resetSeconds: 0.3 })).toEqual({
      'ratelimit-policy': '"default";q=100;w=1, "burst";q=100;w=10',
      ratelimit: '"default";r=42;t=1',
    });
  });

  it('never advertise a Retry-After below one second', () => {
    expect(retryAfterSeconds({ allowed: false, remaining: 0, resetSeconds: 0.01 })).toBe(1);
    expect(retryAfterSeconds({ allowed: false, remaining: 0, resetSeconds: 7.2 })).toBe(8);
  });
});
