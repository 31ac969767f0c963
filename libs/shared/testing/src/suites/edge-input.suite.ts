import { randomBytes } from 'node:crypto';
import { client, type Client, type JsonResponse } from '../e2e/http-client';
import type { TestSystem } from '../e2e/system';

/** Lines of a stack trace, as Node prints them and as pino serialises an `err`. */
const STACK_TRACE = /\bat (?:async )?\S+ \(\S+:\d+:\d+\)|\bat \/\S+:\d+:\d+|"stack"\s*:/;

/**
 * The edge input rules of DESIGN 6.12 over HTTP, the same in every mode: JSON nesting ≤ 32
 * levels on every body-carrying route (enumerated from the OpenAPI document, so a new route is
 * covered without touching this file), valid Unicode in every string and key, valid
 * percent-encoded UTF-8 in query strings and path parameters, canonical base64url mandates, JSON
 * 431s — each a 4xx in the error model, never a 500 and never a stack trace in the log.
 */
export function describeEdgeInput(mode: string, start: () => Promise<TestSystem>) {
  describe(`edge input rules (${mode})`, () => {
    let sys: TestSystem;
    let admin: Client;
    let mandate: string;
    /** How much each process had printed when the tests began: only what they print later is checked. */
    let marks: number[];

    const cardId = 'edge-crm';
    const card = {
      id: cardId,
      name: 'Edge CRM agent',
      allowed_scope: { operations: ['crm.**'], resources: ['crm://**'], forbidden_operations: [] },
      audiences: ['crm-api'],
      max_ttl_seconds: 3600,
    };
    const dispenseBody = (actor = 'agent:edge-bot', context: Record<string, unknown> = { ticket: 'T-1' }) => ({
      actor,
      intent_id: cardId,
      prompt_id: 'prm_edge',
      requested_scope: { operations: ['crm.**'], resources: ['crm://**'] },
      audience: 'crm-api',
      ttl_seconds: 600,
      context,
    });
    const proxyCall = (operation: string) => ({
      action: { surface: 'sdk', operation, arguments: { id: 42 }, target_resource: 'crm://contacts/42' },
      context: { actor: 'agent:edge-bot', prompt_id: 'prm_edge' },
      audience: 'crm-api',
    });
    const label = () => `edge.${randomBytes(4).toString('hex')}`;

    /** Refused at the edge: 400 invalid_request naming `path`, in the error model. */
    const expectRefusal = (res: JsonResponse, path: string, what: string) => {
      expect({ what, status: res.status, code: res.body?.code }).toEqual({ what, status: 400, code: 'invalid_request' });
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.details[0].path).toBe(path);
      expect(res.text).not.toMatch(STACK_TRACE);
    };

    beforeAll(async () => {
      sys = await start();
      admin = client(sys.url, sys.adminKey);
      expect((await admin.post('/v1/intent-cards', card)).status).toBe(201);
      const d = await admin.post('/v1/mandate/dispense', dispenseBody());
      expect(d.status).toBe(200);
      mandate = d.body.credential;
      marks = sys.processes.map((p) => p.output().length);
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it('a 10,000-level body is 400 invalid_request on every POST, PUT and PATCH route of the OpenAPI document', async () => {
      const doc = (await client(sys.url).get('/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
      const routes: [string, string][] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const method of ['post', 'put', 'patch'])
          if (ops[method]) routes.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'edge_0123456789abcdef')]);
      }
      const posts = routes.filter(([m]) => m === 'POST').map(([, p]) => p);
      for (const known of [
        '/v1/intentions',
        '/v1/intent/evaluate',
        '/v1/mandate/dispense',
        '/v1/mcp-proxy/call',
        '/v1/api-keys',
        '/v1/orgs',
        '/v1/webhooks',
        '/v1/grants/verify',
      ])
        expect(posts).toContain(known);
      const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
      const headers = { 'x-service-mandate': mandate };
      const platform = client(sys.url, sys.platformKey);
      for (const [method, path] of routes) {
        // Org management takes the platform admin key; every other route the org's admin key.
        const res = await (path.startsWith('/v1/orgs') ? platform : admin).call(method, path, deep, headers);
        expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 400 });
        expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^body is nested deeper than 32 levels/) });
      }
      // 32 levels are still fine: the limit is the edge's, not a blanket refusal of nesting.
      let ok: unknown = 'leaf';
      for (let i = 0; i < 29; i++) ok = { d: ok };
      expect((await admin.post('/v1/intent/evaluate', { tool_call: { name: 'edge_probe', arguments: ok } })).status).toBe(200);
    });

    // Each case: a request with `poison` (a lone surrogate) at one field, and the same request
    // with a clean value, which must be accepted — so the refusal is the surrogate's and nothing else's.
    const cases: [string, (v: string) => [string, unknown, Record<string, string>?], string | ((v: string) => string), number][] = [
      ['evaluate user_id', (v) => ['/v1/intent/evaluate', { tool_call: { name: 'crm_lookup' }, user_id: `u_${v}` }], 'user_id', 200],
      [
        'evaluate tool_call.arguments',
        (v) => ['/v1/intent/evaluate', { tool_call: { name: 'crm_lookup', arguments: { x: v } } }],
        'tool_call.arguments.x',
        200,
      ],
      ['dispense actor', (v) => ['/v1/mandate/dispense', dispenseBody(`agent:${v}`)], 'actor', 200],
      ['dispense context value', (v) => ['/v1/mandate/dispense', dispenseBody(undefined, { ticket: v })], 'context.ticket', 200],
      ['dispense context key', (v) => ['/v1/mandate/dispense', dispenseBody(undefined, { [`k${v}`]: 1 })], (v) => `context.k${v}`, 200],
      [
        'intention data_elements[].data_source_id',
        (v) => ['/v1/intentions', { label: label(), intent_class: 'lookup', data_elements: [{ data_source_id: `crm${v}`, path: 'contacts.email' }] }],
        'data_elements[0].data_source_id',
        201,
      ],
      ['api-key name', (v) => ['/v1/api-keys', { name: `key ${v}`, scope: 'read_only' }], 'name', 201],
      [
        'mcp-proxy action.operation',
        (v) => ['/v1/mcp-proxy/call', proxyCall(`crm.contacts.${v}read`), { 'x-service-mandate': mandate }],
        'action.operation',
        200,
      ],
    ];

    it.each(cases)('a lone surrogate in %s is 400 naming the field; the clean request passes', async (_name, build, path, cleanStatus) => {
      for (const poison of ['\ud800', '\udfff', '\ud83d']) {
        const [url, body, headers] = build(poison);
        expectRefusal(await admin.post(url, body, headers), typeof path === 'string' ? path : path(poison), `${url} ${JSON.stringify(poison)}`);
      }
      const [url, body, headers] = build('\ud83d\ude00'); // a valid pair (an emoji) is fine
      const clean = await admin.post(url, body, headers);
      expect({ url, status: clean.status }).toEqual({ url, status: cleanStatus });
    });

    it('query values and path parameters that are not UTF-8 or hold NUL are 400 naming the parameter', async () => {
      expectRefusal(await admin.get('/v1/intent/history?outcome=%ED%A0%80'), 'outcome', 'encoded surrogate');
      expectRefusal(await admin.get('/v1/intent/history?limit=5&cursor=%FF'), 'cursor', 'invalid UTF-8');
      expectRefusal(await admin.get('/v1/intentions?status=active%00'), 'status', 'NUL in a query value');
      // Distributed: the gateway's catch-all route forwards to the service, so the parameter is the whole path.
      expectRefusal(await admin.get('/v1/intentions/int_1%00'), mode === 'embedded' ? 'id' : 'path', 'NUL in a path parameter');
      expectRefusal(await admin.get('/v1/intentions/%ED%A0%80'), 'path', 'undecodable path');
      expect((await admin.get('/v1/intentions?status=active')).status).toBe(200);
      expect((await admin.get('/v1/intent-cards/%F0%9F%98%80')).status).toBe(404);
    });

    it('a mandate whose segments are not canonical base64url is 401 mandate_invalid', async () => {
      expect((await admin.post('/v1/mcp-proxy/call', proxyCall('crm.contacts.read'), { 'x-service-mandate': mandate })).status).toBe(200);
      const [h, p, s] = mandate.split('.') as [string, string, string];
      for (const bad of [`${mandate}==`, `${h}.${p}.${s}=`, `${h}==.${p}.${s}`, `${h}.${p}.+${s.slice(1)}`, `${h}.${p}./${s.slice(1)}`]) {
        const res = await admin.post('/v1/mcp-proxy/call', proxyCall('crm.contacts.read'), { 'x-service-mandate': bad });
        expect({ bad, status: res.status }).toEqual({ bad, status: 401 });
        expect(res.body).toEqual({ code: 'mandate_invalid', message: expect.any(String) });
      }
    });

    it('oversized request headers answer a JSON 431 in the error model', async () => {
      const res = await fetch(`${sys.url}/v1/intentions`, { headers: { authorization: `Bearer ${sys.adminKey}`, 'x-big': 'a'.repeat(16 * 1024) } });
      expect(res.status).toBe(431);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ code: 'request_header_fields_too_large', message: expect.any(String) });
      // The server is fine afterwards.
      expect((await admin.get('/v1/intentions')).status).toBe(200);
    });

    it('concurrent evaluations of two orgs, one sending poison: the other org gets only 200s, and only its events are stored', async () => {
      const other = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: `edge-other-${randomBytes(3).toString('hex')}` });
      expect(other.status).toBe(201);
      const orgs = { poison: sys.adminKey, clean: other.body.api_key.key as string };
      const tool = `crm_edge_lookup_${randomBytes(3).toString('hex')}`;
      for (const key of Object.values(orgs)) {
        const c = client(sys.url, key);
        const created = await c.post('/v1/intentions', { label: label(), intent_class: 'lookup', description: 'Look up a CRM customer by id.' });
        expect(created.status).toBe(201);
        expect((await c.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      }
      const runs: Promise<[keyof typeof orgs, number]>[] = [];
      for (let i = 0; i < 60; i++) {
        for (const org of ['poison', 'clean'] as const) {
          const c = client(sys.urls[i % sys.urls.length]!, orgs[org]);
          const user = org === 'poison' ? `u_${i}_\ud800` : `u_edge_${i}`;
          runs.push(c.post('/v1/intent/evaluate', { tool_call: { name: tool, arguments: { id: i } }, user_id: user }).then((r) => [org, r.status]));
        }
      }
      const results = await Promise.all(runs);
      expect(results.filter(([o]) => o === 'poison').map(([, s]) => s)).toEqual(Array(60).fill(400));
      expect(results.filter(([o]) => o === 'clean').map(([, s]) => s)).toEqual(Array(60).fill(200));
      const stored = async (key: string) => {
        const page = await client(sys.url, key).get('/v1/intent/history?limit=200');
        expect(page.status).toBe(200);
        return (page.body.data as { tool_name: string }[]).filter((e) => e.tool_name === tool).length;
      };
      expect(await stored(orgs.clean)).toBe(60);
      expect(await stored(orgs.poison)).toBe(0);
    });

    it('authenticates before content negotiation: a wrong key is 401 whatever the body, a right key with a non-JSON body 415', async () => {
      const raw = (key: string, contentType: string) =>
        fetch(`${sys.url}/v1/intentions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body: 'label=x' });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const wrong = await raw('igw_not_a_key_000000000000000000000000', type);
        expect({ type, status: wrong.status, code: ((await wrong.json()) as { code: string }).code }).toEqual({ type, status: 401, code: 'unauthenticated' });
        const right = await raw(sys.adminKey, type);
        const body = (await right.json()) as { code: string; message: string };
        expect({ type, status: right.status, code: body.code }).toEqual({ type, status: 415, code: 'unsupported_media_type' });
        expect(body.message).toMatch(/Content-Type: application\/json/);
      }
    });

    it('checks the platform admin key before the body too: without it 401 whatever the body; with it, the body is judged', async () => {
      const orgs = (key: string | null, contentType: string, body: string) =>
        fetch(`${sys.url}/v1/orgs`, {
          method: 'POST',
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': contentType },
          body,
        });
      for (const [contentType, body] of [
        ['application/json', '{"rate_limit":"lots"}'],
        ['application/json', '{not json'],
        ['text/plain', 'name=x'],
      ] as const) {
        for (const key of [null, sys.adminKey]) {
          const res = await orgs(key, contentType, body);
          expect({ body, key: key === null ? 'none' : 'org admin key', status: res.status }).toEqual({
            body,
            key: key === null ? 'none' : 'org admin key',
            status: 401,
          });
        }
      }
      expect((await orgs(sys.platformKey, 'application/json', '{"rate_limit":"lots"}')).status).toBe(400);
      expect((await orgs(sys.platformKey, 'text/plain', 'name=x')).status).toBe(415);
    });

    it('answers a known path asked with another method 405 with Allow, and an unknown path 404', async () => {
      const del = await admin.delete('/v1/intentions');
      expect({ status: del.status, code: del.body.code, allow: del.headers.get('allow') }).toEqual({
        status: 405,
        code: 'method_not_allowed',
        allow: 'GET, HEAD, POST',
      });
      expect(del.body.message).toMatch(/DELETE is not allowed on \/v1\/intentions; it takes GET, HEAD, POST/);
      const post = await admin.post('/v1/approvals/apr_x', {});
      expect({ status: post.status, allow: post.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, HEAD' });
      expect((await admin.get('/v1/nothing-here')).status).toBe(404);
    });

    it('printed no stack trace and logged no error for any of these refusals', () => {
      const since = sys.processes.map((p, i) => p.output().slice(marks[i] ?? 0)).join('\n');
      expect(since.length).toBeGreaterThan(0);
      expect(since).not.toMatch(STACK_TRACE);
      expect(since).not.toMatch(/"level":50/);
    });
  });
}
