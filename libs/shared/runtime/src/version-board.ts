import type Redis from 'ioredis';
import type { BaseConfig } from '@igw/config';
import { MemoryVersionBoard, RedisVersionBoard, type VersionBoard } from '@igw/events';
import { StartupError } from './service-infra';

let processBoard: MemoryVersionBoard | undefined;

/**
 * The version board of this process (see VersionBoard in @igw/events). Embedded mode: the
 * process's one MemoryVersionBoard — every call returns the same instance, so the registry that
 * advances it and the services that read it always share it. Distributed mode: a RedisVersionBoard
 * on `redis` (from `createRedis`, which fails fast while Redis is down).
 */
export function createVersionBoard(config: BaseConfig, redis: Redis | undefined): VersionBoard {
  if (config.GATEWAY_MODE === 'embedded') return (processBoard ??= new MemoryVersionBoard());
  if (!redis) throw new StartupError('distributed mode needs REDIS_URL: the version board lives in Redis');
  return new RedisVersionBoard(redis);
}
