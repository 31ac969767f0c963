import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApprovalDto, CreateApprovalRequestDto, IntentCardEventV1 } from '@igw/contracts';
import { intentionEvent } from '@igw/contracts/testing';
import { DependencyUnavailableError, type Caller } from '@igw/kernel';
import { InternalCallerResolver } from '../internal-caller.resolver';
import { HttpApprovalsClient } from './http-approvals.client';
import { HttpPolicyRegistryClient } from './http-policy-registry.client';
import { InternalServiceClient, InternalServiceResponseError } from './internal-service.client';

const TOKEN = 'internal-token-for-tests-0123456789abcdef';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: Received, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const approval = (over: Partial<ApprovalDto> = {}): ApprovalDto => ({
  id: 'apr_1',
  org_id: 'org_acme',
  status: 'pending',
  source: 'evaluate',
  intent_label: 'crm.export',
  intent_card_id: null,
  tool_name: 'crm.export_contacts',
  operation: null,
  summary: 'export contacts',
  requested_by_key_id: 'key_agent',
  user_id: null,
  created_at: '2025-01-01T00:00:00.000Z',
  expires_at: '2025-01-01T00:15:00.000Z',
  decided_at: null,
  decided_by_key_id: null,
  reason: null,
  reason_code: 'approval_required',
  candidates: [],
  tool_call: { name: 'crm.export_contacts', arguments: {} },
  ...over,
});

const intention = intentionEvent;

const cardEvent = (over: Partial<IntentCardEventV1> = {}): IntentCardEventV1 => ({
  id: 'crm-reader',
  name: 'CRM reader',
  description: '',
  allowed_scope: { operations: ['crm.read'], resources: ['crm://customers/*'], forbidden_operations: [] },
  audiences: ['crm-api'],
  max_ttl_seconds: 3600,
  shadow: false,
  rules: [{ id: 'bulk', when: 'size(action.arguments) > 2', decision: { kind: 'approval' } }],
  version: 1,
  org_version: 4,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:01:00.000Z',
  ...over,
});

/** Fail closed: the error the HTTP layer answers with 503, naming the dependency. */
const expectUnavailable = async (call: Promise<unknown>, dependency: string) => {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DependencyUnavailableError);
  expect(err).toMatchObject({ kind: 'unavailable', code: 'unavailable', dependency, message: `${dependency} is unavailable; retry later` });
};

/** Free a port by listening on 0 and closing: nothing listens there afterwards. */
const closedPort = async (): Promise<number> => {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
};

describe('internal service clients over HTTP (local node:http server)', () => {
  let server: Server;
  let baseUrl: string;
  let handler: Handler;
  let received: Received[];
  let connections: number;
  const clients: InternalServiceClient[] = [];

  const client = (options: ConstructorParameters<typeof InternalServiceClient>[2] = {}, url = baseUrl) => {
    const c = new InternalServiceClient(url, TOKEN, options);
    clients.push(c);
    return c;
  };
  const last = () => received.at(-1)!;
  const caller: Caller = { orgId: 'org_acme', keyId: 'key_agent', scope: 'policy_write' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        received.push(r);
        handler(r, res);
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    received = [];
    connections = 0;
    handler = (_req, res) => json(res, 200, { ok: true });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    // Drops sockets a test left hanging (the timeout tests never answer).
    server.closeAllConnections();
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  describe('InternalServiceClient', () => {
    it('sends the internal token, the caller and the request id, and round-trips JSON', async () => {
      handler = (req, res) => json(res, 201, { echo: JSON.parse(req.body) as unknown, path: req.url });
      const res = await client().request<{ echo: unknown; path: string }>(
        'POST',
        '/internal/things?x=1',
        caller,
        { a: 1, b: ['ü', null] },
        { requestId: 'req_abc' },
      );

      expect(res).toEqual({ status: 201, body: { echo: { a: 1, b: ['ü', null] }, path: '/internal/things?x=1' } });
      expect(last().method).toBe('POST');
      expect(last().headers).toMatchObject({
        'x-igw-internal-token': TOKEN,
        'x-igw-org-id': 'org_acme',
        'x-igw-key-id': 'key_agent',
        'x-igw-scope': 'policy_write',
        'x-request-id': 'req_abc',
        'content-type': 'application/json',
        accept: 'application/json',
      });
      // What it sends is exactly what a service behind the gateway accepts.
      expect(await new InternalCallerResolver(TOKEN).resolve({ headers: last().headers })).toEqual(caller);
    });

    it('sends no body, content type or request id when none is given, and keeps its connection alive', async () => {
      // One connection in the pool: a second socket could only mean the first was not kept alive.
      const c = client({ connections: 1 });
      expect(await c.request('GET', '/internal/a', caller)).toEqual({ status: 200, body: { ok: true } });
      expect(await c.request('GET', '/internal/b', caller)).toEqual({ status: 200, body: { ok: true } });

      expect(received.map((r) => [r.method, r.url, r.body])).toEqual([
        ['GET', '/internal/a', ''],
        ['GET', '/internal/b', ''],
      ]);
      expect(last().headers['content-type']).toBeUndefined();
      expect(last().headers['x-request-id']).toBeUndefined();
      expect(connections).toBe(1);
    });

    it('returns 4xx answers for the typed client to interpret, and an empty body as null', async () => {
      handler = (_req, res) => json(res, 409, { code: 'conflict', message: 'no' });
      expect(await client().request('POST', '/internal/x', caller, {})).toEqual({ status: 409, body: { code: 'conflict', message: 'no' } });

      handler = (_req, res) => res.writeHead(204).end();
      expect(await client().request('POST', '/internal/x', caller)).toEqual({ status: 204, body: null });
    });

    it.each([500, 502, 503])('fails closed on %i', async (status) => {
      handler = (_req, res) => json(res, status, { code: 'unavailable', message: 'down' });
      await expectUnavailable(client({ service: 'approvals' }).request('GET', '/internal/x', caller), 'approvals');
    });

    it('fails closed on a body that is not JSON', async () => {
      handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy error</html>');
      await expect(client().request('GET', '/internal/x', caller)).rejects.toBeInstanceOf(DependencyUnavailableError);
    });

    it('fails closed when nothing listens', async () => {
      const down = client({ service: 'policy-registry' }, `http://127.0.0.1:${await closedPort()}`);
      const err = await down.request('GET', '/internal/x', caller).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DependencyUnavailableError);
      expect(err).toMatchObject({
        kind: 'unavailable',
        code: 'unavailable',
        dependency: 'policy-registry',
        cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
      });
    });

    it('fails closed when the service does not answer in time', async () => {
      handler = () => undefined; // never answers
      const started = Date.now();
      await expect(client({ timeoutMs: 150 }).request('GET', '/internal/slow', caller)).rejects.toBeInstanceOf(DependencyUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('fails closed when the body stalls after the headers', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
      };
      await expect(client({ timeoutMs: 150 }).request('GET', '/internal/stall', caller)).rejects.toBeInstanceOf(DependencyUnavailableError);
    });

    it('refuses a path that is not absolute as a programming error', async () => {
      const err = await client()
        .request('GET', 'internal/x', caller)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(DependencyUnavailableError);
      expect(received).toEqual([]);
    });
  });

  describe('HttpApprovalsClient', () => {
    const approvals = () => new HttpApprovalsClient(client({ service: 'approvals' }));
    const request: CreateApprovalRequestDto = { source: 'evaluate', summary: 'export contacts', fingerprint: 'f'.repeat(64), intent_label: 'crm.export' };

    it('creates: POST /internal/approvals as the agent key, read_only unless a scope is given', async () => {
      handler = (_req, res) => json(res, 201, approval());
      const api = approvals();
      expect(await api.create({ orgId: 'org_acme', keyId: 'key_agent' }, request)).toEqual(approval());
      expect(last()).toMatchObject({ method: 'POST', url: '/internal/approvals' });
      expect(JSON.parse(last().body)).toEqual(request);
      expect(last().headers).toMatchObject({
        'x-igw-org-id': 'org_acme',
        'x-igw-key-id': 'key_agent',
        'x-igw-scope': 'read_only',
        'x-igw-internal-token': TOKEN,
      });

      handler = (_req, res) => json(res, 200, approval());
      await api.create(caller, request);
      expect(last().headers['x-igw-scope']).toBe('policy_write');
    });

    it('consumes: 200 is the approval used, 404 is null', async () => {
      const used = approval({ status: 'approved', decided_at: '2025-01-01T00:05:00.000Z', decided_by_key_id: 'key_admin' });
      handler = (_req, res) => json(res, 200, used);
      const api = approvals();
      expect(await api.consume({ orgId: 'org_acme', keyId: 'key_agent' }, 'fp_1')).toEqual(used);
      expect(last()).toMatchObject({ method: 'POST', url: '/internal/approvals/consume' });
      expect(JSON.parse(last().body)).toEqual({ fingerprint: 'fp_1' });

      handler = (_req, res) => json(res, 404, { code: 'not_found', message: 'no approved, unused and unexpired approval for this call' });
      expect(await api.consume({ orgId: 'org_acme', keyId: 'key_agent' }, 'fp_2')).toBeNull();
    });

    it('treats any other 4xx as a programming error, not an outage', async () => {
      handler = (_req, res) => json(res, 400, { code: 'invalid_request', message: 'summary must be a string' });
      const err = await approvals()
        .create(caller, request)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InternalServiceResponseError);
      expect(err).not.toBeInstanceOf(DependencyUnavailableError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_request', message: 'approvals answered POST /internal/approvals with 400 invalid_request' });

      handler = (_req, res) => json(res, 401, { code: 'unauthenticated', message: 'requests must come through the gateway' });
      await expect(approvals().consume(caller, 'fp')).rejects.toMatchObject({ name: 'InternalServiceResponseError', status: 401, code: 'unauthenticated' });
    });

    it('fails closed on 5xx and on an answer that is not an approval of the caller’s org', async () => {
      handler = (_req, res) => json(res, 503, { code: 'unavailable', message: 'database is unavailable; retry later' });
      await expectUnavailable(approvals().consume(caller, 'fp'), 'approvals');

      handler = (_req, res) => json(res, 200, approval({ org_id: 'org_other' }));
      await expect(approvals().consume(caller, 'fp')).rejects.toBeInstanceOf(DependencyUnavailableError);

      handler = (_req, res) => json(res, 201, { id: 'apr_1' });
      await expect(approvals().create(caller, request)).rejects.toBeInstanceOf(DependencyUnavailableError);
    });
  });

  describe('HttpPolicyRegistryClient', () => {
    const registry = () => new HttpPolicyRegistryClient(client({ service: 'policy-registry' }), 'svc:intent-evaluator');

    it('reads the org’s active intentions as the service identity with read_only, validated', async () => {
      const snapshot = { version: 5, intentions: [intention(), intention({ id: 'int_2', label: 'crm.export', data_elements: [] })] };
      handler = (_req, res) => json(res, 200, snapshot);
      const got = await registry().activeIntentions('org_acme');

      expect(got).toEqual(snapshot);
      expect(last()).toMatchObject({ method: 'GET', url: '/internal/intentions/active', body: '' });
      expect(last().headers).toMatchObject({
        'x-igw-internal-token': TOKEN,
        'x-igw-org-id': 'org_acme',
        'x-igw-key-id': 'svc:intent-evaluator',
        'x-igw-scope': 'read_only',
      });
    });

    // One table for both reads: each must fail closed on a body that is not what it promises.
    const intentions = (r: HttpPolicyRegistryClient) => r.activeIntentions('org_acme');
    const cards = (r: HttpPolicyRegistryClient) => r.intentCards('org_acme');
    it.each<[string, (r: HttpPolicyRegistryClient) => Promise<unknown>, unknown]>([
      ['intentions: an intention with an unknown status', intentions, { version: 5, intentions: [intention({ status: 'live' as never })] }],
      [
        'intentions: a data element without a path',
        intentions,
        { version: 5, intentions: [intention({ data_elements: [{ data_source_id: 'crm' } as never] })] },
      ],
      ['intentions: a negative version', intentions, { version: -1, intentions: [] }],
      ['intentions: a version as a string', intentions, { version: '5', intentions: [] }],
      ['intentions: no intentions', intentions, { version: 5 }],
      ['intentions: an array', intentions, [intention()]],
      ['intentions: null', intentions, null],
      ['cards snapshot: a card without allowed_scope', cards, { version: 4, cards: [{ ...cardEvent(), allowed_scope: undefined }] }],
      ['cards snapshot: a card with a zero org_version', cards, { version: 4, cards: [cardEvent({ org_version: 0 })] }],
      ['cards snapshot: a negative version', cards, { version: -1, cards: [] }],
      ['cards snapshot: no cards', cards, { version: 4 }],
      ['cards snapshot: an array', cards, [cardEvent()]],
      ['cards snapshot: null', cards, null],
    ])('fails closed on an invalid body: %s', async (_what, read, body) => {
      handler = (_req, res) => json(res, 200, body);
      const err = await read(registry()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DependencyUnavailableError);
      expect(err).toMatchObject({ dependency: 'policy-registry' });
    });

    it('names the first invalid field in the cause', async () => {
      handler = (_req, res) => json(res, 200, { version: 5, intentions: [intention(), intention({ status: 'live' as never })] });
      const err = (await registry()
        .activeIntentions('org_acme')
        .catch((e: unknown) => e)) as { cause: Error };
      expect(err.cause.message).toMatch(/intentions\.1\.status must be one of/);
    });

    it('reads one intent card of the org: 200 is the card, 404 is null, a body that is not that card fails closed', async () => {
      const card = { id: 'crm/reader', name: 'CRM reader', allowed_scope: { operations: ['crm.read'], resources: ['*'], forbidden_operations: [] } };
      handler = (_req, res) => json(res, 200, card);
      expect(await registry().intentCard('org_acme', 'crm/reader')).toEqual(card);
      expect(last()).toMatchObject({ method: 'GET', url: '/internal/intent-cards/crm%2Freader' });
      expect(last().headers).toMatchObject({ 'x-igw-org-id': 'org_acme', 'x-igw-scope': 'read_only' });
      handler = (_req, res) => json(res, 404, { code: 'not_found', message: 'intent card not found' });
      expect(await registry().intentCard('org_acme', 'crm/reader')).toBeNull();
      handler = (_req, res) => json(res, 200, { ...card, id: 'someone-else' });
      await expect(registry().intentCard('org_acme', 'crm/reader')).rejects.toBeInstanceOf(DependencyUnavailableError);
      handler = (_req, res) => json(res, 503, { code: 'unavailable', message: 'down' });
      await expect(registry().intentCard('org_acme', 'crm/reader')).rejects.toBeInstanceOf(DependencyUnavailableError);
    });

    it('reads the org’s intent cards snapshot as the service identity with read_only, validated', async () => {
      const snapshot = { version: 4, cards: [cardEvent(), cardEvent({ id: 'crm-writer', rules: [] })] };
      handler = (_req, res) => json(res, 200, snapshot);
      expect(await registry().intentCards('org_acme')).toEqual(snapshot);
      expect(last()).toMatchObject({ method: 'GET', url: '/internal/intent-cards', body: '' });
      expect(last().headers).toMatchObject({
        'x-igw-internal-token': TOKEN,
        'x-igw-org-id': 'org_acme',
        'x-igw-key-id': 'svc:intent-evaluator',
        'x-igw-scope': 'read_only',
      });

      handler = (_req, res) => json(res, 200, { version: 0, cards: [] });
      expect(await registry().intentCards('org_acme')).toEqual({ version: 0, cards: [] });
    });

    it('names the first invalid card field in the cause', async () => {
      handler = (_req, res) => json(res, 200, { version: 4, cards: [cardEvent(), cardEvent({ shadow: 'yes' as never })] });
      const err = (await registry()
        .intentCards('org_acme')
        .catch((e: unknown) => e)) as { cause: Error };
      expect(err.cause.message).toMatch(/GET \/internal\/intent-cards answered an invalid body: cards\.1\.shadow must be a boolean/);
    });

    it('fails closed on 5xx and reports another 4xx as a programming error', async () => {
      handler = (_req, res) => json(res, 500, { code: 'internal', message: 'internal error' });
      await expect(registry().activeIntentions('org_acme')).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(registry().intentCards('org_acme')).rejects.toBeInstanceOf(DependencyUnavailableError);

      handler = (_req, res) => json(res, 401, { code: 'unauthenticated', message: 'caller headers missing' });
      const err = await registry()
        .activeIntentions('org_acme')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InternalServiceResponseError);
      expect(err).toMatchObject({ status: 401, code: 'unauthenticated' });
      const cardsErr = await registry()
        .intentCards('org_acme')
        .catch((e: unknown) => e);
      expect(cardsErr).toBeInstanceOf(InternalServiceResponseError);
      expect(cardsErr).not.toBeInstanceOf(DependencyUnavailableError);
      expect(cardsErr).toMatchObject({ status: 401, code: 'unauthenticated', message: expect.stringContaining('GET /internal/intent-cards') });
    });
  });
});
