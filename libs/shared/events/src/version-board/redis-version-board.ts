import type Redis from 'ioredis';
import { assertBoardVersion } from './assert-version';
import type { VersionBoard } from './version-board.port';

/** Sets KEYS[1] to ARGV[1] only when that is higher than what it holds (atomic in Redis). */
const ADVANCE_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local version = tonumber(ARGV[1])
if version > current then
  redis.call('SET', KEYS[1], ARGV[1])
  return version
end
return current`;

export interface RedisVersionBoardOptions {
  /** Prefix of every Redis key (default `igw:ver:`). */
  prefix?: string;
  /**
   * Longest a read or an advance may take before it rejects (default 500 ms), on top of the
   * client's own fail-fast settings: a hung Redis must not hold calls (the caller decides to fail
   * closed).
   */
  timeoutMs?: number;
}

export class VersionBoardUnavailableError extends Error {}

/**
 * Distributed mode: the counters live in Redis under `igw:ver:<key>`, read by every replica.
 * Give it a client that fails fast while Redis is down (`createRedis` in @igw/runtime: no offline
 * queue, one retry): reads then reject at once instead of waiting for a reconnect.
 */
export class RedisVersionBoard implements VersionBoard {
  private readonly prefix: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisVersionBoardOptions = {},
  ) {
    this.prefix = options.prefix ?? 'igw:ver:';
    this.timeoutMs = options.timeoutMs ?? 500;
  }

  async current(key: string): Promise<number> {
    const raw = await this.bounded(this.redis.get(this.prefix + key), 'read');
    const version = raw === null ? 0 : Number(raw);
    if (!Number.isSafeInteger(version) || version < 0) throw new VersionBoardUnavailableError(`version board holds a malformed value for ${key}`);
    return version;
  }

  async advance(key: string, version: number): Promise<void> {
    assertBoardVersion(version);
    await this.bounded(this.redis.eval(ADVANCE_SCRIPT, 1, this.prefix + key, String(version)), 'advance');
  }

  private bounded<T>(op: Promise<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new VersionBoardUnavailableError(`version board ${what} timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      op.then(
        (value) => (clearTimeout(timer), resolve(value)),
        (err: unknown) => (
          clearTimeout(timer),
          reject(new VersionBoardUnavailableError(`version board ${what} failed: ${(err as Error)?.message ?? String(err)}`))
        ),
      );
    });
  }
}
