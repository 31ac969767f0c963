import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS, NO_METRICS, rateLimited, unauthenticated, type Caller, type Metrics } from '@igw/kernel';
import type { CallerResolver, RequestLike } from '@igw/http';
import { rateLimitHeaders, retryAfterSeconds } from '../../domain/rate-limit';
import { AuthenticateApiKeyUseCase } from '../../application/use-cases/authenticate-api-key.use-case';
import { bearerOf } from './bearer';
import { RATE_LIMITER, type RateLimiter } from '../../application/ports/rate-limiter.port';

/** Headers the edge adds to the answer (onSend hook), also on a 429. */
export interface EdgeRequest extends RequestLike {
  edgeHeaders?: Record<string, string>;
}

/**
 * The gateway's admission: the bearer key names the caller (401 otherwise), then the key's
 * rate limit is charged (429 with Retry-After and RateLimit headers when spent).
 */
@Injectable()
export class ApiKeyCallerResolver implements CallerResolver {
  constructor(
    private readonly authenticate: AuthenticateApiKeyUseCase,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = NO_METRICS,
  ) {}

  async resolve(req: EdgeRequest): Promise<Caller> {
    const { header, token: key } = bearerOf(req);
    if (!header) throw unauthenticated('missing Authorization: Bearer <API key>');
    if (!key) throw unauthenticated('the Authorization header must be "Bearer <API key>"');
    const { caller, rateLimit } = await this.authenticate.execute(key);
    const outcome = await this.limiter.consume(caller.keyId, rateLimit);
    req.edgeHeaders = rateLimitHeaders(rateLimit, outcome);
    if (!outcome.allowed) {
      this.metrics.rateLimited();
      throw rateLimited(
        'rate_limited',
        `rate limit of ${rateLimit.requestsPerSecond} requests per second (burst ${rateLimit.burst}) exceeded for this key`,
        retryAfterSeconds(outcome),
      );
    }
    return caller;
  }
}
