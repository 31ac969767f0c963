import Redis from 'ioredis';
import type { BaseConfig } from '@igw/config';
import { MemoryVersionBoard, RedisVersionBoard } from '@igw/events';
import { StartupError } from './service-infra';
import { createVersionBoard } from './version-board';

const config = (mode: 'embedded' | 'distributed') => ({ GATEWAY_MODE: mode }) as BaseConfig;

describe('createVersionBoard', () => {
  it('embedded: one MemoryVersionBoard for the whole process', async () => {
    const board = createVersionBoard(config('embedded'), undefined);
    expect(board).toBeInstanceOf(MemoryVersionBoard);
    expect(createVersionBoard(config('embedded'), undefined)).toBe(board);
    await board.advance('k', 3);
    expect(await createVersionBoard(config('embedded'), undefined).current('k')).toBe(3);
  });

  it('distributed: a RedisVersionBoard on the given client, and none without one', () => {
    const redis = new Redis({ lazyConnect: true });
    try {
      expect(createVersionBoard(config('distributed'), redis)).toBeInstanceOf(RedisVersionBoard);
    } finally {
      redis.disconnect();
    }
    expect(() => createVersionBoard(config('distributed'), undefined)).toThrow(StartupError);
  });
});
