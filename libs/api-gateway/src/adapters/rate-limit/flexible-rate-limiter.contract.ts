import type { RateLimiter } from '../../application/ports/rate-limiter.port';

/**
 * What a RateLimiter must do whatever its store: serve the second's quota, then the burst pool,
 * then refuse — and report at each step exactly what is left, so a client that trusts the
 * RateLimit header is never refused early and never told 0 while it would still be served.
 */
export function itBehavesAsARateLimiter(make: () => RateLimiter, subject: () => string): void {
  it('serves the second, then the burst pool, then refuses; what it reports left is what it then serves', async () => {
    const limiter = make();
    const key = subject();
    const policy = { requestsPerSecond: 2, burst: 5 };
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await limiter.consume(key, policy));
    expect(outcomes.map((o) => o.allowed)).toEqual([true, true, true, true, true, false]);
    expect(outcomes.map((o) => [o.remaining, o.burst?.remaining])).toEqual([
      [1, 3],
      [0, 3],
      [0, 2],
      [0, 1],
      [0, 0],
      [0, 0],
    ]);
    // Each allowed answer reports exactly how many more will be allowed (within the second).
    outcomes.slice(0, 5).forEach((o, i) => expect(o.remaining + (o.burst?.remaining ?? 0)).toBe(4 - i));
    expect(outcomes[5]?.resetSeconds).toBeLessThanOrEqual(1);
    expect(outcomes[4]?.burst?.resetSeconds).toBeGreaterThan(1);
  });

  it('has no pool when burst equals the rate, and keys do not share counts', async () => {
    const limiter = make();
    const [a, b] = [subject(), subject()];
    const policy = { requestsPerSecond: 1, burst: 1 };
    const first = await limiter.consume(a, policy);
    expect(first).toEqual({ allowed: true, remaining: 0, resetSeconds: expect.any(Number) });
    expect((await limiter.consume(a, policy)).allowed).toBe(false);
    expect((await limiter.consume(b, policy)).allowed).toBe(true);
  });
}
