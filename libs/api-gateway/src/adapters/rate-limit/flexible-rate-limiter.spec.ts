import { randomUUID } from 'node:crypto';
import { FlexibleRateLimiter } from './flexible-rate-limiter';
import { itBehavesAsARateLimiter } from './flexible-rate-limiter.contract';

describe('FlexibleRateLimiter (in memory, embedded)', () => {
  itBehavesAsARateLimiter(
    () => new FlexibleRateLimiter(),
    () => `key_${randomUUID()}`,
  );
});
