import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import Redis from 'ioredis';
import { DependencyUnavailableError } from '@igw/kernel';
import { itBehavesAsAnMcpSessionStore } from '../mcp-session-store.contract';
import { RedisMcpSessionStore } from './redis-mcp-session.store';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Like createRedis in @igw/runtime: commands fail fast while Redis is down. */
const failFast = { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: (n: number) => Math.min(n * 200, 2000) };

describe('RedisMcpSessionStore (Redis)', () => {
  let redis: Redis;
  const prefix = `igw:test:mcp:${randomUUID()}:`;

  beforeAll(async () => {
    redis = new Redis(url, { ...failFast, lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  itBehavesAsAnMcpSessionStore(() => new RedisMcpSessionStore(redis, 500, prefix));

  it('two replicas share one view: what one creates, touches or ends, the other sees', async () => {
    const other = new Redis(url, { ...failFast, lazyConnect: true });
    await other.connect();
    try {
      const [one, two] = [new RedisMcpSessionStore(redis, 500, prefix), new RedisMcpSessionStore(other, 500, prefix)];
      const s = { id: randomUUID(), orgId: 'org_x', keyId: 'k', server: 'files', mandatePath: false, capabilities: {}, upstream: {} };
      await one.create(s, { idleMs: 60_000, maxPerOrg: 10 });
      expect(await two.get('org_x', s.id)).toEqual(s);
      // The org's keys share a hash tag: one slot in a Redis Cluster.
      expect((await redis.keys(`${prefix}{org_x}:*`)).length).toBe(2);
      await two.delete(s);
      expect(await one.get('org_x', s.id)).toBeNull();
    } finally {
      await other.quit();
    }
  });

  it('a Redis that does not answer is a 503 (DependencyUnavailableError), never a session', async () => {
    // Accepts connections and never answers.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const hung = new Redis({ host: '127.0.0.1', port, ...failFast, lazyConnect: true, commandTimeout: 5000 });
    hung.connect().catch(() => undefined);
    try {
      const store = new RedisMcpSessionStore(hung, 200, prefix);
      await expect(store.get('org_x', randomUUID())).rejects.toBeInstanceOf(DependencyUnavailableError);
    } finally {
      hung.disconnect();
      silent.close();
    }
  });
});
