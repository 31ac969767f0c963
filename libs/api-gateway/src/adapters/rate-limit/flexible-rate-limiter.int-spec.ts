import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { FlexibleRateLimiter } from './flexible-rate-limiter';
import { itBehavesAsARateLimiter } from './flexible-rate-limiter.contract';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('FlexibleRateLimiter (Redis, distributed)', () => {
  let redis: Redis;
  const subjects: string[] = [];

  beforeAll(async () => {
    redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await redis.connect();
  });

  afterAll(async () => {
    for (const s of subjects) {
      const keys = await redis.keys(`igw:rl:*${s}`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  });

  itBehavesAsARateLimiter(
    () => new FlexibleRateLimiter(redis),
    () => {
      const s = `key_test_${randomUUID()}`;
      subjects.push(s);
      return s;
    },
  );

  it('holds under concurrency on an auto-pipelined client, as the services create it', async () => {
    const pipelined = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true });
    await pipelined.connect();
    try {
      const limiter = new FlexibleRateLimiter(pipelined);
      const keys = Array.from({ length: 5 }, () => {
        const s = `key_test_${randomUUID()}`;
        subjects.push(s);
        return s;
      });
      const outcomes = await Promise.all(Array.from({ length: 400 }, (_, i) => limiter.consume(keys[i % keys.length]!, { requestsPerSecond: 20, burst: 60 })));
      // Per key: 60 served at most (20 this second + 40 from the pool), whatever the interleaving.
      expect(outcomes.filter((o) => o.allowed).length).toBeLessThanOrEqual(5 * 60);
      expect(outcomes.filter((o) => o.allowed).length).toBeGreaterThanOrEqual(5 * 20);
      expect(outcomes.every((o) => Number.isFinite(o.remaining) && o.remaining >= 0)).toBe(true);
    } finally {
      pipelined.disconnect();
    }
  });

  // ioredis copies a client's script commands into a pipeline when the pipeline is made. A limiter
  // defining its script after another command had opened the tick's auto-pipeline left that
  // pipeline without it: the consume threw inside the pipeline, its answers shifted by one, and
  // "results[i] is not iterable" was thrown outside any promise, killing the gateway (seen in CI).
  it('defines its script before any request: a first consume queued behind another command in the same tick is answered', async () => {
    const pipelined = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true });
    await pipelined.connect();
    try {
      const limiter = new FlexibleRateLimiter(pipelined);
      const s = `key_test_${randomUUID()}`;
      subjects.push(s);
      // The GET opens the auto-pipeline; the limiter's first consume joins it in the same tick.
      const [value, outcome, after] = await Promise.all([
        pipelined.get(`igw:test:${s}`),
        limiter.consume(s, { requestsPerSecond: 3, burst: 3 }),
        pipelined.get(`igw:test:${s}`),
      ]);
      expect([value, after]).toEqual([null, null]);
      expect(outcome).toMatchObject({ allowed: true, remaining: 2 });
    } finally {
      pipelined.disconnect();
    }
  });

  it('replicas share the counts: what one serves, the other reports', async () => {
    const [one, two] = [new FlexibleRateLimiter(redis), new FlexibleRateLimiter(redis)];
    const s = `key_test_${randomUUID()}`;
    subjects.push(s);
    const policy = { requestsPerSecond: 2, burst: 4 };
    await one.consume(s, policy);
    await one.consume(s, policy);
    await one.consume(s, policy);
    expect(await two.consume(s, policy)).toMatchObject({ allowed: true, remaining: 0, burst: { remaining: 0 } });
    expect((await two.consume(s, policy)).allowed).toBe(false);
  });
});
