import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DependencyUnavailableError } from '@igw/kernel';
import { HttpMandateIssuerClient } from './http-mandate-issuer.client';
import { InternalServiceClient, InternalServiceResponseError } from './internal-service.client';

const TOKEN = 'internal-token-for-tests-0123456789abcdef';

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('HttpMandateIssuerClient (local node:http server)', () => {
  let server: Server;
  let baseUrl: string;
  let handler: (res: ServerResponse) => void;
  let received: { method: string; url: string; headers: IncomingHttpHeaders }[];
  const pools: InternalServiceClient[] = [];

  const issuer = (url = baseUrl) => {
    const http = new InternalServiceClient(url, TOKEN, { service: 'mandate-issuer', timeoutMs: 1000 });
    pools.push(http);
    return new HttpMandateIssuerClient(http, 'svc:decision-proxy');
  };
  const expectUnavailable = async (call: Promise<unknown>) => {
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailableError);
    expect(err).toMatchObject({ code: 'unavailable', dependency: 'mandate-issuer' });
    return err as DependencyUnavailableError & { cause: Error };
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers });
        handler(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    received = [];
    handler = (res) => json(res, 200, { version: 0, revoked: [] });
  });

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
    server.closeAllConnections();
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks for the org’s revocations after a version as the service identity with read_only, validated', async () => {
    const body = { version: 7, revoked: [{ cred_id: 'cred_1', expires_at: '2026-03-01T10:05:00.000Z' }] };
    handler = (res) => json(res, 200, body);
    expect(await issuer().revocationsSince('org_acme', 5)).toEqual(body);
    expect(received).toEqual([
      {
        method: 'GET',
        url: '/internal/mandates/revocations?after=5',
        headers: expect.objectContaining({
          'x-igw-internal-token': TOKEN,
          'x-igw-org-id': 'org_acme',
          'x-igw-key-id': 'svc:decision-proxy',
          'x-igw-scope': 'read_only',
        }),
      },
    ]);
  });

  it('refuses a version that is not a non-negative integer before asking', async () => {
    for (const bad of [-1, 1.5, Number.NaN]) await expect(issuer().revocationsSince('org_acme', bad)).rejects.toBeInstanceOf(RangeError);
    expect(received).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a negative version', { version: -1, revoked: [] }],
    ['a version as a string', { version: '7', revoked: [] }],
    ['no revoked list', { version: 7 }],
    ['an entry without cred_id', { version: 7, revoked: [{ expires_at: '2026-03-01T10:05:00.000Z' }] }],
    ['an entry with a bad expires_at', { version: 7, revoked: [{ cred_id: 'cred_1', expires_at: 'soon' }] }],
    ['an array', []],
    ['null', null],
  ])('fails closed on an invalid body: %s', async (_what, body) => {
    handler = (res) => json(res, 200, body);
    await expectUnavailable(issuer().revocationsSince('org_acme', 0));
  });

  it('names the first invalid field in the cause', async () => {
    handler = (res) =>
      json(res, 200, {
        version: 2,
        revoked: [
          { cred_id: 'a', expires_at: '2026-03-01T10:05:00.000Z' },
          { cred_id: 'b', expires_at: 'soon' },
        ],
      });
    const err = await expectUnavailable(issuer().revocationsSince('org_acme', 0));
    expect(err.cause.message).toMatch(/revoked\.1\.expires_at must be a valid ISO 8601/);
  });

  it('5xx and an unreachable issuer are DependencyUnavailableError; another 4xx is a programming error', async () => {
    handler = (res) => json(res, 503, { code: 'unavailable', message: 'database is unavailable; retry later' });
    await expectUnavailable(issuer().revocationsSince('org_acme', 0));
    handler = (res) => json(res, 500, { code: 'internal', message: 'boom' });
    await expectUnavailable(issuer().revocationsSince('org_acme', 0));
    await expectUnavailable(issuer('http://127.0.0.1:1').revocationsSince('org_acme', 0));

    handler = (res) => json(res, 400, { code: 'invalid_request', message: 'after must be a non-negative integer' });
    const err = await issuer()
      .revocationsSince('org_acme', 0)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServiceResponseError);
    expect(err).not.toBeInstanceOf(DependencyUnavailableError);
    expect(err).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'mandate-issuer answered GET /internal/mandates/revocations with 400 invalid_request',
    });
  });
});
