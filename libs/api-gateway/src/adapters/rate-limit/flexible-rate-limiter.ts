import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import type { RateLimitOutcome, RateLimitPolicy, RateLimitWindow } from '../../domain/rate-limit';
import type { RateLimiter } from '../../application/ports/rate-limiter.port';

/** Extra requests above the sustained rate are drawn from a pool that refills every 10 s. */
export const BURST_WINDOW_SECONDS = 10;

interface Limiters {
  sustained: RateLimiterAbstract;
  /** Absent when burst = requestsPerSecond. */
  pool?: { limiter: RateLimiterAbstract };
}

/**
 * rate-limiter-flexible behind the RateLimiter port: a 1-second window of `requestsPerSecond`
 * plus a burst pool of `burst − requestsPerSecond` per 10 s, drawn from only when the second's
 * quota is spent. Both windows are reported, so the RateLimit header counts what the limiter
 * will really allow (BurstyRateLimiter hides the pool: a client saw r=0 and was still served).
 * In memory when embedded; in Redis when distributed (shared by every replica), with an
 * in-memory insurance limiter so a Redis outage degrades to per-replica limits instead of
 * failing every request.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, Limiters>();

  constructor(private readonly redis?: Redis) {
    // A RateLimiterRedis defines its script command on the client when it is made, and ioredis
    // copies script commands into a pipeline when the pipeline is made: defined first at a request,
    // the command was missing from an auto-pipeline another command had opened in the same tick,
    // which shifted that pipeline's answers and threw outside any promise. Defined now, at start.
    if (redis) this.make('igw:rl:define', 1, 1);
  }

  async consume(subject: string, policy: RateLimitPolicy): Promise<RateLimitOutcome> {
    const { sustained, pool } = this.limitersFor(policy);
    // The pool is read alongside the second's count (one round trip to Redis, not two).
    const [second, poolNow] = await Promise.all([settle(sustained.consume(subject)), pool ? poolState(pool, subject) : undefined]);
    const window = { remaining: second.remainingPoints, resetSeconds: second.msBeforeNext / 1000 };
    if (second.allowed) return { allowed: true, ...window, ...(poolNow ? { burst: poolNow } : {}) };
    if (!pool) return { allowed: false, remaining: 0, resetSeconds: window.resetSeconds };
    const drawn = await settle(pool.limiter.consume(subject));
    return {
      allowed: drawn.allowed,
      remaining: 0,
      resetSeconds: window.resetSeconds,
      burst: { remaining: drawn.remainingPoints, resetSeconds: drawn.msBeforeNext / 1000 },
    };
  }

  private limitersFor(policy: RateLimitPolicy): Limiters {
    const id = `${policy.requestsPerSecond}:${policy.burst}`;
    let limiters = this.limiters.get(id);
    if (!limiters) {
      const extra = policy.burst - policy.requestsPerSecond;
      limiters = {
        sustained: this.make(`igw:rl:${id}:s`, policy.requestsPerSecond, 1),
        ...(extra > 0 ? { pool: { limiter: this.make(`igw:rl:${id}:b`, extra, BURST_WINDOW_SECONDS) } } : {}),
      };
      this.limiters.set(id, limiters);
    }
    return limiters;
  }

  private make(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    if (!this.redis) return new RateLimiterMemory({ keyPrefix, points, duration });
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${keyPrefix}:ins`, points, duration }),
    });
  }
}

/** A consume's answer whether it allowed (resolved) or refused (rejected with a RateLimiterRes); other errors propagate. */
async function settle(attempt: Promise<RateLimiterRes>): Promise<{ allowed: boolean; remainingPoints: number; msBeforeNext: number }> {
  try {
    const res = await attempt;
    return { allowed: true, remainingPoints: res.remainingPoints, msBeforeNext: res.msBeforeNext };
  } catch (rej) {
    if (rej instanceof RateLimiterRes) return { allowed: false, remainingPoints: 0, msBeforeNext: rej.msBeforeNext };
    throw rej;
  }
}

/**
 * The pool as it stands, read by consuming nothing from it: the same Lua script as a draw.
 * (RateLimiterRedis.get runs a MULTI, which ioredis' auto-pipelining breaks under concurrency:
 * "results[i] is not iterable" thrown outside any promise, killing the process.) Unknown when it
 * cannot be read, and then not reported.
 */
async function poolState(pool: NonNullable<Limiters['pool']>, subject: string): Promise<RateLimitWindow | undefined> {
  try {
    const now = await settle(pool.limiter.consume(subject, 0));
    return { remaining: now.remainingPoints, resetSeconds: now.msBeforeNext / 1000 };
  } catch {
    return undefined;
  }
}
