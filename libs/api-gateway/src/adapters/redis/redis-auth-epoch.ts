import type Redis from 'ioredis';
import type { AuthEpoch } from '../../application/ports/auth-epoch.port';

const KEY = 'igw:auth:epoch';

/** Distributed mode: one counter in Redis read by every gateway replica. */
export class RedisAuthEpoch implements AuthEpoch {
  constructor(private readonly redis: Redis) {}
  async current(): Promise<number> {
    return Number((await this.redis.get(KEY)) ?? 0);
  }
  async bump(): Promise<void> {
    await this.redis.incr(KEY);
  }
}
