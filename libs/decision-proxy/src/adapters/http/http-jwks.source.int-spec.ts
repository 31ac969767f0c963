import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DependencyUnavailableError } from '@igw/kernel';
import { HttpJwksSource } from './http-jwks.source';

// The HTTP JWKS source against a local node:http server standing in for the mandate issuer.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('HttpJwksSource', () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  const sources: HttpJwksSource[] = [];
  const source = (path = '/v1/mandate/jwks', timeoutMs = 500) => {
    const s = new HttpJwksSource(`${base}${path}`, { timeoutMs });
    sources.push(s);
    return s;
  };
  const json =
    (status: number, body: unknown): Handler =>
    (_req, res) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(sources.map((s) => s.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('GETs the configured URL and returns its RSA keys', async () => {
    let seen: { method?: string; url?: string } = {};
    const good = { kty: 'RSA', kid: 'k1', n: 'nn', e: 'AQAB', alg: 'RS256', use: 'sig' };
    handler = (req, res) => {
      seen = { method: req.method, url: req.url };
      json(200, { keys: [good, { kty: 'oct', kid: 'h', k: 'c2VjcmV0' }] })(req, res);
    };
    await expect(source().fetch()).resolves.toEqual({ keys: [good] });
    expect(seen).toEqual({ method: 'GET', url: '/v1/mandate/jwks' });
  });

  it.each([
    ['a 500', json(500, { code: 'internal' })],
    ['a 404', json(404, {})],
    ['a redirect', ((_req, res) => void res.writeHead(302, { location: 'http://attacker.example/jwks' }).end()) as Handler],
    ['a non-JSON body', ((_req, res) => void res.writeHead(200).end('<html>')) as Handler],
    ['a body that is no JWKS', json(200, { foo: [] })],
    ['an oversized body', ((_req, res) => void res.writeHead(200).end(JSON.stringify({ keys: [], pad: 'x'.repeat(300 * 1024) }))) as Handler],
  ])('fails with DependencyUnavailableError on %s', async (_name, h) => {
    handler = h;
    await expect(source().fetch()).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('fails with DependencyUnavailableError when the issuer does not answer in time', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    await expect(source('/v1/mandate/jwks', 200).fetch()).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('no answer within 200 ms'),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('fails with DependencyUnavailableError when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = new HttpJwksSource(`http://127.0.0.1:${port}/v1/mandate/jwks`, { timeoutMs: 500 });
    sources.push(s);
    await expect(s.fetch()).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('refuses a non-http(s) URL at construction', () => {
    expect(() => new HttpJwksSource('file:///etc/passwd')).toThrow(/http/);
  });
});
