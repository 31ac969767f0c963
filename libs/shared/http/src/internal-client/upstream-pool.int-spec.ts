import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { neverReached, requestAnyReplica, serviceUrls, upstreamPool } from './upstream-pool';

/** Real sockets: two replicas answering their name, one of them stopped half way. */
describe('upstream pool over replicas', () => {
  const servers: Server[] = [];
  const start = (name: string) =>
    new Promise<string>((resolve) => {
      const s = createServer((_req, res) => res.end(name));
      servers.push(s);
      s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`));
    });
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  it('reads one URL or a comma-separated list of replicas', () => {
    expect(serviceUrls('http://a:1')).toEqual(['http://a:1']);
    expect(serviceUrls('http://a:1, http://b:2,')).toEqual(['http://a:1', 'http://b:2']);
  });

  it('spreads requests over the replicas, and skips one that refuses connections', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const pool = upstreamPool(`${a},${b}`, { connections: 4, keepAliveTimeout: 1000 });
    const names = async (n: number) => {
      const seen: string[] = [];
      for (let i = 0; i < n; i++) seen.push(await (await requestAnyReplica(pool, { method: 'GET', path: '/' })).body.text());
      return seen;
    };
    expect(new Set(await names(20))).toEqual(new Set(['a', 'b']));
    // Replica a shuts down (it closes its idle connections, its port then refuses): every
    // request still gets an answer, from b.
    await new Promise((r) => servers[0]?.close(r));
    expect(new Set(await names(20))).toEqual(new Set(['b']));
    await pool.close();
  });

  it('tells a request that never reached a replica from one that did', async () => {
    const dead = upstreamPool('http://127.0.0.1:1', { connections: 1 });
    const err = await requestAnyReplica(dead, { method: 'POST', path: '/', body: '{}' }).catch((e: unknown) => e);
    expect(neverReached(err)).toBe(true);
    expect(neverReached(new Error('socket hang up'))).toBe(false);
    expect(neverReached(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(false);
    await dead.close();
  });
});
