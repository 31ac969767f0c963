import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DRAINING_HEADER, neverReached, requestAnyReplica, serviceUrls, upstreamPool } from './upstream-pool';

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

  it('sends a POST a draining replica refused unrun (503 marked draining) to another replica, and nothing else twice', async () => {
    const runs: string[] = [];
    const drainingOnce = createServer((req, res) => {
      if (runs.length === 0 && req.url === '/drain') {
        runs.push('refused');
        res.writeHead(503, { [DRAINING_HEADER]: '1', connection: 'close' }).end('{"code":"unavailable"}');
        return;
      }
      runs.push(req.url ?? '');
      res.writeHead(req.url === '/plain503' ? 503 : 200).end('ran');
    });
    servers.push(drainingOnce);
    const url = await new Promise<string>((resolve) =>
      drainingOnce.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(drainingOnce.address() as AddressInfo).port}`)),
    );
    const pool = upstreamPool(url, { connections: 2 });
    const drained = await requestAnyReplica(pool, { method: 'POST', path: '/drain', body: '{}' });
    expect([drained.statusCode, await drained.body.text()]).toEqual([200, 'ran']);
    expect(runs).toEqual(['refused', '/drain']);
    // A 503 without the mark may have been run: it is answered as it is, never sent again.
    const plain = await requestAnyReplica(pool, { method: 'POST', path: '/plain503', body: '{}' });
    expect(plain.statusCode).toBe(503);
    await plain.body.dump();
    expect(runs).toEqual(['refused', '/drain', '/plain503']);
    await pool.close();
  });
});
