/** Requests per second per key and the burst above it (DESIGN 6.12: 100/s, burst 200). */
export interface RateLimitPolicy {
  requestsPerSecond: number;
  burst: number;
}

/** What is left of one window after a request: requests, and seconds until it resets. */
export interface RateLimitWindow {
  remaining: number;
  resetSeconds: number;
}

export interface RateLimitOutcome extends RateLimitWindow {
  allowed: boolean;
  /**
   * The burst pool (`burst − requestsPerSecond` extra requests per 10 s), when the policy has
   * one and its state is known. A request the second's quota refuses is served from it.
   */
  burst?: RateLimitWindow;
}

const seconds = (s: number) => Math.max(1, Math.ceil(s));

/**
 * IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured-field form):
 * `RateLimit-Policy: "default";q=100;w=1, "burst";q=100;w=10` (sustained rate per second, and
 * the extra requests a burst may draw per 10 s) and `RateLimit: "default";r=<left>;t=<reset>,
 * "burst";r=<left>;t=<refill>`: one item per policy, so a client reading `r` of both knows what
 * it may still send, as the limiter will count it.
 */
export function rateLimitHeaders(policy: RateLimitPolicy, outcome: RateLimitOutcome): Record<string, string> {
  const items = [`"default";r=${Math.max(0, outcome.remaining)};t=${seconds(outcome.resetSeconds)}`];
  if (outcome.burst) items.push(`"burst";r=${Math.max(0, outcome.burst.remaining)};t=${seconds(outcome.burst.resetSeconds)}`);
  return {
    'ratelimit-policy': `"default";q=${policy.requestsPerSecond};w=1, "burst";q=${Math.max(0, policy.burst - policy.requestsPerSecond)};w=10`,
    ratelimit: items.join(', '),
  };
}

/** After a refusal: when the second's quota comes back (the burst pool refills more slowly). */
export function retryAfterSeconds(outcome: RateLimitOutcome): number {
  return seconds(outcome.resetSeconds);
}
