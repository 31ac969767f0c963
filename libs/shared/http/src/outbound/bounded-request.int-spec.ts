import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { boundedRequest, OutboundRequestError } from './bounded-request';

describe('boundedRequest (local node:http server)', () => {
  let server: Server;
  let base: string;
  const agent = new Agent({ connections: 4 });
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') return res.writeHead(201).end('{"a":1}');
      if (req.url === '/big') return res.writeHead(200).end('x'.repeat(2048));
      if (req.url === '/refused') return res.writeHead(500).end('x'.repeat(2048));
      if (req.url === '/stall') {
        res.writeHead(200);
        res.write('partial');
        return; // the body never ends
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await agent.close();
  });

  const opts = { method: 'GET' as const, dispatcher: agent, timeoutMs: 300, maxBytes: 1024 };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (e instanceof OutboundRequestError ? e.failure : e),
    );

  it('answers the status and the body of any status', async () => {
    expect(await boundedRequest(`${base}/ok`, opts)).toEqual({ status: 201, text: '{"a":1}' });
  });

  it('refuses a body over the cap, unless it was not to be read', async () => {
    expect(await failure(boundedRequest(`${base}/big`, opts))).toBe('too_large');
    expect(await boundedRequest(`${base}/refused`, { ...opts, readBody: (s) => s < 300 })).toEqual({ status: 500, text: '' });
  });

  it('one deadline covers a body that stalls, and a refused connection is a network failure', async () => {
    expect(await failure(boundedRequest(`${base}/stall`, opts))).toBe('timeout');
    const err = await boundedRequest('http://127.0.0.1:1/', opts).catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: 'network', code: 'ECONNREFUSED' });
  });
});
