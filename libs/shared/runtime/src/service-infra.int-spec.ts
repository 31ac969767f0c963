import pino from 'pino';
import type { BaseConfig } from '@igw/config';
import { startTcpFaultProxy, type TcpFaultProxy } from '@igw/testing';
import { createRedis, REDIS_COMMAND_TIMEOUT_MS, redisReady } from './service-infra';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The Redis client of every distributed process, behind a fault proxy. */
describe('createRedis on a hung Redis', () => {
  let proxy: TcpFaultProxy;

  beforeAll(async () => {
    const target = new URL(redisUrl);
    proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('a command that gets no reply fails within the command timeout, and the client works again once Redis answers', async () => {
    const redis = createRedis({ GATEWAY_MODE: 'distributed', REDIS_URL: proxy.rewrite(redisUrl) } as BaseConfig, pino({ level: 'silent' }))!;
    try {
      expect(await redisReady(redis)).toBe(true);
      expect(await redis.ping()).toBe('PONG');
      proxy.blackhole();
      const started = Date.now();
      await expect(redis.get('igw:test:hung')).rejects.toThrow(/timed out/);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 1500);

      proxy.restore();
      const deadline = Date.now() + 5000;
      let pong = '';
      while (pong !== 'PONG' && Date.now() < deadline) pong = await redis.ping().catch(() => '');
      expect(pong).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });
});
