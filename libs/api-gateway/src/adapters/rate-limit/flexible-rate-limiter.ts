import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import type { RateLimitOutcome, RateLimitPolicy } from '../../domain/rate-limit';
import type { RateLimiter } from '../../application/ports/rate-limiter.port';

/** Extra requests above the sustained rate are drawn from a pool that refills every 10 s. */
export const BURST_WINDOW_SECONDS = 10;

/**
 * rate-limiter-flexible behind the RateLimiter port: a 1-second window of `requestsPerSecond`
 * plus a burst pool of `burst − requestsPerSecond` per 10 s. In memory when embedded; in Redis
 * when distributed (shared by every replica), with an in-memory insurance limiter so a Redis
 * outage degrades to per-replica limits instead of failing every request.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, { consume(key: string): Promise<RateLimiterRes> }>();

  constructor(private readonly redis?: Redis) {}

  async consume(subject: string, policy: RateLimitPolicy): Promise<RateLimitOutcome> {
    const limiter = this.limiterFor(policy);
    try {
      const res = await limiter.consume(subject);
      return { allowed: true, remaining: res.remainingPoints, resetSeconds: res.msBeforeNext / 1000 };
    } catch (rej) {
      if (rej instanceof RateLimiterRes) return { allowed: false, remaining: 0, resetSeconds: rej.msBeforeNext / 1000 };
      throw rej;
    }
  }

  private limiterFor(policy: RateLimitPolicy) {
    const id = `${policy.requestsPerSecond}:${policy.burst}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const extra = policy.burst - policy.requestsPerSecond;
      const sustained = this.make(`igw:rl:${id}:s`, policy.requestsPerSecond, 1);
      limiter = extra > 0 ? new BurstyRateLimiter(sustained, this.make(`igw:rl:${id}:b`, extra, BURST_WINDOW_SECONDS)) : sustained;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private make(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    const p = points;
    if (!this.redis) return new RateLimiterMemory({ keyPrefix, points: p, duration });
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points: p,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${keyPrefix}:ins`, points: p, duration }),
    });
  }
}
