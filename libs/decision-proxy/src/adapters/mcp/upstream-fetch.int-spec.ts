import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { upstreamFetch } from './upstream-fetch';

describe('upstreamFetch', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/empty') return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: 'x'.repeat(req.url === '/big' ? 5000 : 10) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes answers under the cap through, bodies and empty ones', async () => {
    const fetchUpstream = upstreamFetch(true, 1000);
    expect(await (await fetchUpstream(`${url}/small`)).json()).toEqual({ data: 'x'.repeat(10) });
    expect((await fetchUpstream(`${url}/empty`, { method: 'POST', body: '{}' })).status).toBe(202);
  });

  it('fails an answer larger than the cap while it is read', async () => {
    const res = await upstreamFetch(true, 1000)(`${url}/big`);
    await expect(res.text()).rejects.toThrow();
  });

  it('refuses a loopback upstream unless private upstreams are allowed', async () => {
    await expect(upstreamFetch(false)(`${url}/small`)).rejects.toThrow();
  });
});
