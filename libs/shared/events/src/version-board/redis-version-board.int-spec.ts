import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { RedisVersionBoard, VersionBoardUnavailableError } from './redis-version-board';
import { itBehavesAsAVersionBoard } from './version-board.contract';
import { intentionsKey } from './version-board.port';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Like createRedis in @igw/runtime: commands fail fast while Redis is down. */
const failFast = { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: (n: number) => Math.min(n * 200, 2000) };

describe('RedisVersionBoard (Redis)', () => {
  let redis: Redis;
  const clients: Redis[] = [];
  // Every test works under its own prefix; the keys are removed afterwards.
  const prefixes: string[] = [];
  const newBoard = (options: { timeoutMs?: number } = {}) => {
    const prefix = `igw:test:ver:${randomUUID()}:`;
    prefixes.push(prefix);
    return { board: new RedisVersionBoard(redis, { prefix, ...options }), prefix };
  };

  beforeAll(async () => {
    redis = new Redis(url, { ...failFast, lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
    }
    redis?.disconnect();
    for (const c of clients) c.disconnect();
  });

  it('reads 0 for an unknown key and stores versions under the prefix', async () => {
    const { board, prefix } = newBoard();
    expect(await board.current(intentionsKey('org_a'))).toBe(0);
    await board.advance(intentionsKey('org_a'), 4);
    expect(await board.current(intentionsKey('org_a'))).toBe(4);
    expect(await redis.get(`${prefix}intentions:org_a`)).toBe('4');
    expect(await board.current(intentionsKey('org_b'))).toBe(0);
  });

  it('uses igw:ver:<key> by default', async () => {
    const key = `test-default-prefix-${randomUUID()}`;
    const board = new RedisVersionBoard(redis);
    try {
      await board.advance(key, 2);
      expect(await redis.get(`igw:ver:${key}`)).toBe('2');
      expect(await board.current(key)).toBe(2);
    } finally {
      await redis.del(`igw:ver:${key}`);
    }
  });

  // Never lowers a version, keeps keys apart, refuses bad versions: as every board.
  itBehavesAsAVersionBoard(() => newBoard().board);

  it('ends at the highest version under concurrent advances from several clients', async () => {
    const { prefix } = newBoard();
    const boards = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const c = new Redis(url, { ...failFast, lazyConnect: true });
        clients.push(c);
        await c.connect();
        return new RedisVersionBoard(c, { prefix });
      }),
    );
    for (let round = 0; round < 5; round++) {
      const top = (round + 1) * 200;
      const versions = Array.from({ length: 200 }, (_, i) => round * 200 + i + 1).sort(() => Math.random() - 0.5);
      const seen: number[] = [];
      // Readers running alongside never see the value go down.
      const reader = (async () => {
        for (let i = 0; i < 50; i++) seen.push(await boards[0]!.current('k'));
      })();
      await Promise.all(versions.map((v, i) => boards[i % boards.length]!.advance('k', v)));
      await reader;
      expect(await boards[1]!.current('k')).toBe(top);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
  });

  it('refuses versions that are not non-negative integers without touching Redis', async () => {
    const { board, prefix } = newBoard();
    await expect(board.advance('k', -1)).rejects.toThrow(RangeError);
    await expect(board.advance('k', 2.5)).rejects.toThrow(RangeError);
    expect(await redis.exists(`${prefix}k`)).toBe(0);
  });

  it('reports a malformed stored value instead of guessing', async () => {
    const { board, prefix } = newBoard();
    await redis.set(`${prefix}k`, 'garbage');
    await expect(board.current('k')).rejects.toThrow(VersionBoardUnavailableError);
  });

  it('fails fast when Redis is unreachable', async () => {
    const down = new Redis('redis://127.0.0.1:1', { ...failFast, lazyConnect: true });
    clients.push(down);
    down.on('error', () => undefined);
    await down.connect().catch(() => undefined);
    const board = new RedisVersionBoard(down, { prefix: 'igw:test:down:' });
    const started = Date.now();
    await expect(board.current('k')).rejects.toThrow(VersionBoardUnavailableError);
    await expect(board.advance('k', 1)).rejects.toThrow(VersionBoardUnavailableError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives up after its timeout when Redis stops answering', async () => {
    // A proxy in front of the real Redis that, once paused, swallows every answer: a hung server.
    const target = new URL(url);
    let paused = false;
    const sockets: Socket[] = [];
    const proxy: Server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      sockets.push(client, upstream);
      client.on('data', (d) => upstream.write(d));
      upstream.on('data', (d) => paused || client.write(d));
      for (const s of [client, upstream]) s.on('error', () => undefined);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as { port: number }).port;
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    const hung = new Redis(proxied.toString(), { ...failFast, lazyConnect: true });
    clients.push(hung);
    hung.on('error', () => undefined);
    try {
      await hung.connect();
      const prefix = `igw:test:ver:${randomUUID()}:`;
      prefixes.push(prefix);
      const board = new RedisVersionBoard(hung, { prefix, timeoutMs: 150 });
      await board.advance('k', 1);
      expect(await board.current('k')).toBe(1);
      paused = true;
      const started = Date.now();
      await expect(board.current('k')).rejects.toThrow(/timed out after 150 ms/);
      await expect(board.advance('k', 2)).rejects.toThrow(VersionBoardUnavailableError);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      hung.disconnect();
      for (const s of sockets) s.destroy();
      await new Promise((r) => proxy.close(r));
    }
  });
});
