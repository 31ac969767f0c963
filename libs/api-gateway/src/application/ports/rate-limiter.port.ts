import type { RateLimitOutcome, RateLimitPolicy } from '../../domain/rate-limit';

export const RATE_LIMITER = Symbol('RATE_LIMITER');

/** Counts one request against `subject` (a key id). Shared by every replica when distributed. */
export interface RateLimiter {
  consume(subject: string, policy: RateLimitPolicy): Promise<RateLimitOutcome>;
}
