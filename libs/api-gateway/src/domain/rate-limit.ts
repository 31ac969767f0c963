/** Requests per second per key and the burst above it (DESIGN 6.12: 100/s, burst 200). */
export interface RateLimitPolicy {
  requestsPerSecond: number;
  burst: number;
}

export interface RateLimitOutcome {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window that refused (or the current one) resets. */
  resetSeconds: number;
}

/**
 * IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured-field form):
 * `RateLimit-Policy: "default";q=100;w=1, "burst";q=100;w=10` (sustained rate per second, and
 * the extra requests a burst may draw per 10 s) and `RateLimit: "default";r=<remaining>;t=<reset>`.
 */
export function rateLimitHeaders(policy: RateLimitPolicy, outcome: RateLimitOutcome): Record<string, string> {
  const reset = Math.max(1, Math.ceil(outcome.resetSeconds));
  return {
    'ratelimit-policy': `"default";q=${policy.requestsPerSecond};w=1, "burst";q=${Math.max(0, policy.burst - policy.requestsPerSecond)};w=10`,
    ratelimit: `"default";r=${Math.max(0, outcome.remaining)};t=${reset}`,
  };
}

export function retryAfterSeconds(outcome: RateLimitOutcome): number {
  return Math.max(1, Math.ceil(outcome.resetSeconds));
}
