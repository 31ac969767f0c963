import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DRAFT_CRM_LOOKUP } from '@igw/contracts/testing';
import { REPO_ROOT } from '../e2e/app-process';
import { client, type Client } from '../e2e/http-client';
import { cardBody } from '../e2e/mandate-fixtures';
import type { TestSystem } from '../e2e/system';

/**
 * The behaviour every mode must show over HTTP (spec 0.6.0, DESIGN 6.1–6.3, 6.7, 6.12). Run by
 * the embedded and the distributed e2e specs against real processes.
 */
export function describePublicApi(mode: string, start: () => Promise<TestSystem>) {
  describe(`public API (${mode})`, () => {
    let sys: TestSystem;
    let admin: Client;
    let platform: Client;
    let writer: Client;
    let reader: Client;
    let writerKey: string;
    let otherOrg: Client;
    const secrets: string[] = [];

    beforeAll(async () => {
      sys = await start();
      admin = client(sys.url, sys.adminKey);
      platform = client(sys.url, sys.platformKey);
      const w = await admin.post('/v1/api-keys', { name: 'writer', scope: 'policy_write' });
      expect(w.status).toBe(201);
      writerKey = w.body.key;
      writer = client(sys.url, writerKey);
      const r = await admin.post('/v1/api-keys', { name: 'reader', scope: 'read_only' });
      reader = client(sys.url, r.body.key);
      const o = await platform.post('/v1/orgs', { name: 'other-org' });
      expect(o.status).toBe(201);
      otherOrg = client(sys.url, o.body.api_key.key);
      secrets.push(w.body.key, r.body.key, o.body.api_key.key, sys.adminKey, sys.platformKey);
    });

    afterAll(async () => {
      await sys?.stop();
    });

    describe('probes, health and docs', () => {
      it('serves /livez and /readyz without auth', async () => {
        const anon = client(sys.url);
        expect((await anon.get('/livez')).status).toBe(200);
        const ready = await anon.get('/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body.status).toBe('ok');
      });

      it('GET /v1/health reports mode, version and dependency checks to any key', async () => {
        const res = await reader.get('/v1/health');
        expect(res.status).toBe(200);
        // The whole body on failure: which check warned, and its numbers.
        if (res.body.status !== 'ok') throw new Error(`health is ${res.body.status}: ${JSON.stringify(res.body)}`);
        expect(res.body).toMatchObject({ status: 'ok', version: '0.6.0', mode });
        expect(res.body.checks).toMatchObject({ database: 'ok', events: 'ok', cache: 'ok' });
        expect((await client(sys.url).get('/v1/health')).status).toBe(401);
      });

      it('publishes OpenAPI at /v1/openapi.json covering the built routes, and a docs page', async () => {
        const res = await client(sys.url).get('/v1/openapi.json');
        expect(res.status).toBe(200);
        expect(res.body.openapi).toMatch(/^3\./);
        for (const p of [
          '/v1/intentions',
          '/v1/purposes',
          '/v1/intent-cards',
          '/v1/api-keys',
          '/v1/orgs',
          '/v1/health',
          '/v1/approvals',
          '/v1/intent/evaluate',
          '/v1/intent/history',
          '/v1/grants/verify',
          '/v1/mandate/dispense',
          '/v1/mandate/jwks',
          '/v1/mcp-proxy/call',
          '/v1/mcp-proxy/reviews',
          '/v1/webhooks',
          '/v1/webhooks/{id}/deliveries',
        ]) {
          expect(Object.keys(res.body.paths)).toContain(p);
        }
        const docs = await fetch(`${sys.url}/docs`);
        expect(docs.status).toBe(200);
        expect(await docs.text()).toMatch(/swagger/i);
      });

      it('serves, in this mode, every operation and schema exactly as checked in (libs/sdk/openapi.json)', async () => {
        const served = (await client(sys.url).get('/v1/openapi.json')).body;
        const checkedIn = JSON.parse(readFileSync(join(REPO_ROOT, 'libs/sdk/openapi.json'), 'utf8'));
        const operations = (doc: { paths: Record<string, Record<string, { operationId: string }>> }) =>
          Object.fromEntries(Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method} ${path}`, op])));
        expect(operations(served)).toEqual(operations(checkedIn));
        expect(served.components.schemas).toEqual(checkedIn.components.schemas);
        expect(served.tags).toEqual(checkedIn.tags);
        expect(served.info).toEqual(checkedIn.info);
      });

      it('unknown routes are a 404 not_found', async () => {
        for (const [method, path] of [
          ['POST', '/v1/mcp-proxy/unknown'],
          ['GET', '/v1/nothing-here'],
        ] as const) {
          const res = await admin.call(method, path, method === 'POST' ? {} : undefined);
          expect(res.status).toBe(404);
          expect(res.body.code).toBe('not_found');
        }
      });
    });

    describe('authentication and errors', () => {
      it('401 unauthenticated for a missing, malformed, unknown or non-bearer key', async () => {
        for (const headers of [
          {} as Record<string, string>,
          { authorization: 'Bearer nope' },
          { authorization: `Bearer igw_${'A'.repeat(38)}` },
          { authorization: `Basic ${sys.adminKey}` },
        ]) {
          const res = await client(sys.url).get('/v1/intentions', headers);
          expect(res.status).toBe(401);
          expect(res.body).toEqual({ code: 'unauthenticated', message: expect.any(String) });
        }
      });

      it('malformed JSON is a 400, a body over 256 KiB a 413, never a stack trace', async () => {
        const bad = await writer.post('/v1/intentions', '{"label": ', {});
        expect(bad.status).toBe(400);
        expect(bad.body.code).toBe('invalid_request');
        const big = await writer.post('/v1/intentions', { label: 'big', intent_class: 'other', description: 'x'.repeat(300 * 1024) });
        expect(big.status).toBe(413);
        expect(big.body.code).toBe('payload_too_large');
        // PostgreSQL cannot store NUL in text: refused up front, naming the field, not a 500 at write time.
        const nul = await writer.post('/v1/intentions', '{"label":"nul.test","intent_class":"other","description":"a\\u0000b"}');
        expect(nul.status).toBe(400);
        expect(nul.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'description' }] });
        for (const r of [bad, big, nul]) expect(r.text).not.toMatch(/at .*\.(js|ts):\d+/);
      });

      it('unknown routes answer JSON 404 and every answer has a request id', async () => {
        const res = await admin.get('/v1/nothing-here');
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
        expect(res.headers.get('x-request-id')).toBeTruthy();
        const echoed = await admin.get('/v1/intentions', { 'x-request-id': 'trace-123' });
        expect(echoed.headers.get('x-request-id')).toBe('trace-123');
      });
    });

    describe('orgs and API keys', () => {
      it('POST /v1/orgs needs the platform admin key and validates its body', async () => {
        expect((await admin.post('/v1/orgs', { name: 'x' })).status).toBe(401);
        expect((await client(sys.url).post('/v1/orgs', { name: 'x' })).status).toBe(401);
        const bad = await platform.post('/v1/orgs', { name: '' });
        expect(bad.status).toBe(400);
        expect(bad.body.details[0].path).toBe('name');
        // A missing field says it is required, not that its value is off (there is none).
        const missing = await platform.post('/v1/orgs', {});
        expect(missing).toMatchObject({
          status: 400,
          body: { code: 'invalid_request', message: 'name is required', details: [{ path: 'name', message: 'name is required' }] },
        });
        const ok = await platform.post('/v1/orgs', { name: 'acme' });
        expect(ok.status).toBe(201);
        expect(ok.body.org).toMatchObject({ name: 'acme', rate_limit: { requests_per_second: 100, burst: 200 } });
        expect(ok.body.api_key).toMatchObject({ scope: 'admin', key: expect.stringMatching(/^igw_[0-9A-Za-z]{38}$/) });
        secrets.push(ok.body.api_key.key);
      });

      it('keys are shown once, listed without secrets, scoped, and revoked keys fail at once', async () => {
        const created = await admin.post('/v1/api-keys', { name: 'temp', scope: 'read_only' });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          id: expect.any(String),
          name: 'temp',
          scope: 'read_only',
          key: expect.stringMatching(/^igw_/),
          created_at: expect.any(String),
        });
        secrets.push(created.body.key);
        const list = await admin.get('/v1/api-keys');
        expect(list.status).toBe(200);
        expect(list.text).not.toContain(created.body.key);
        expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
        for (const k of list.body.data) expect(k.key).toBeUndefined();

        const temp = client(sys.url, created.body.key);
        expect((await temp.get('/v1/intentions')).status).toBe(200);
        expect((await temp.post('/v1/api-keys', { name: 'x', scope: 'admin' })).body.code).toBe('insufficient_scope');
        expect((await writer.get('/v1/api-keys')).status).toBe(403);

        expect((await otherOrg.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(404);
        const revoked = await admin.delete(`/v1/api-keys/${created.body.id}`);
        expect(revoked.status).toBe(200);
        expect(revoked.body.revoked_at).toEqual(expect.any(String));
        expect((await admin.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(200);
        for (const url of sys.urls) expect((await client(url, created.body.key).get('/v1/intentions')).status).toBe(401);
      });

      it('rejects bad key bodies naming the field', async () => {
        const res = await admin.post('/v1/api-keys', { name: 'x', scope: 'root' });
        expect(res.status).toBe(400);
        expect(res.body.details[0]).toMatchObject({ path: 'scope' });
        const extra = await admin.post('/v1/api-keys', { name: 'x', scope: 'admin', owner: 'me' });
        expect(extra.status).toBe(400);
        expect(extra.body.details[0].path).toBe('owner');
        for (const field of ['name', 'scope']) {
          const { [field]: _left, ...body } = { name: 'x', scope: 'admin' } as Record<string, string>;
          const missing = await admin.post('/v1/api-keys', body);
          expect(missing).toMatchObject({
            status: 400,
            body: { code: 'invalid_request', message: `${field} is required`, details: [{ path: field, message: `${field} is required` }] },
          });
        }
      });
    });

    describe('intentions and purposes', () => {
      it('creates a draft with defaults (policy_write), ignores server fields, rejects unknown ones', async () => {
        const res = await writer.post('/v1/intentions', {
          label: 'crm.lookup',
          intent_class: 'lookup',
          id: 'ignored',
          status: 'active',
          created_at: '2000-01-01T00:00:00Z',
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject(DRAFT_CRM_LOOKUP);
        expect(res.body.id).not.toBe('ignored');
        expect(res.body.created_at).not.toBe('2000-01-01T00:00:00Z');
        const unknown = await writer.post('/v1/intentions', { label: 'x1', intent_class: 'lookup', colour: 'red' });
        expect(unknown.status).toBe(400);
        expect(unknown.body.details[0].path).toBe('colour');
      });

      it('names the offending field on invalid bodies', async () => {
        const cases: [unknown, string][] = [
          [{ intent_class: 'lookup' }, 'label'],
          [{ label: 'Bad Label', intent_class: 'lookup' }, 'label'],
          [{ label: 'ok.label', intent_class: 'spying' }, 'intent_class'],
          [{ label: 'ok.label', intent_class: 'lookup', ttl_minutes: 0 }, 'ttl_minutes'],
          [{ label: 'ok.label', intent_class: 'lookup', ttl_minutes: 1441 }, 'ttl_minutes'],
          [{ label: 'ok.label', intent_class: 'lookup', data_elements: [{ data_source_id: 'crm' }] }, 'data_elements[0].path'],
          [[1, 2], ''],
        ];
        for (const [body, path] of cases) {
          const res = await writer.post('/v1/intentions', body);
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('invalid_request');
          if (path) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
        }
        expect((await writer.post('/v1/intentions', { intent_class: 'lookup' })).body.message).toBe('label is required');
        expect((await writer.post('/v1/intentions', { label: 'ok.label' })).body.message).toBe('intent_class is required');
        const element = await writer.post('/v1/intentions', { label: 'ok.label', intent_class: 'lookup', data_elements: [{ data_source_id: 'crm' }] });
        expect(element.body.details[0]).toEqual({ path: 'data_elements[0].path', message: 'data_elements[0].path is required' });
      });

      it('403 insufficient_scope for read_only on create and publish', async () => {
        const res = await reader.post('/v1/intentions', { label: 'nope', intent_class: 'lookup' });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('insufficient_scope');
        expect((await reader.post('/v1/purposes', { label: 'nope', intent_class: 'lookup' })).status).toBe(403);
      });

      it('one resource under two paths: a label collides across both (409 label_conflict)', async () => {
        const p = await writer.post('/v1/purposes', {
          label: 'billing.export',
          intent_class: 'export',
          data_elements: [{ data_source_id: 'billing', path: 'invoices.total' }],
        });
        expect(p.status).toBe(201);
        const dup = await writer.post('/v1/intentions', { label: 'billing.export', intent_class: 'export' });
        expect(dup.status).toBe(409);
        expect(dup.body.code).toBe('label_conflict');
        const viaIntentions = await reader.get(`/v1/intentions/${p.body.id}`);
        expect(viaIntentions.status).toBe(200);
        expect(viaIntentions.body.label).toBe('billing.export');
        const list = await reader.get('/v1/purposes');
        expect(list.body.data.map((i: { id: string }) => i.id)).toContain(p.body.id);
        // Another org may use the same label.
        expect((await otherOrg.post('/v1/intentions', { label: 'billing.export', intent_class: 'export' })).status).toBe(201);
      });

      it('publish: draft→active, idempotent; archive; archived cannot be published', async () => {
        const c = await writer.post('/v1/intentions', { label: 'hr.report', intent_class: 'reporting' });
        const id = c.body.id;
        // Publish, publish again through the legacy alias (idempotent), archive.
        const steps: [string, string][] = [
          [`/v1/intentions/${id}/publish`, 'active'],
          [`/v1/purposes/${id}/publish`, 'active'],
          [`/v1/intentions/${id}/archive`, 'archived'],
        ];
        for (const [path, status] of steps) {
          const res = await writer.post(path);
          expect([path, res.status, res.body.status]).toEqual([path, 200, status]);
        }
        const late = await writer.post(`/v1/intentions/${id}/publish`);
        expect(late.status).toBe(409);
        expect(late.body.code).toBe('invalid_transition');
        expect((await reader.post(`/v1/intentions/${id}/archive`)).status).toBe(403);
      });

      it("another org's intention is a 404 everywhere", async () => {
        const c = await writer.post('/v1/intentions', { label: 'secret.thing', intent_class: 'admin' });
        for (const res of [
          await otherOrg.get(`/v1/intentions/${c.body.id}`),
          await otherOrg.post(`/v1/intentions/${c.body.id}/publish`),
          await otherOrg.post(`/v1/purposes/${c.body.id}/archive`),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body.code).toBe('not_found');
        }
        const theirs = await otherOrg.get('/v1/intentions');
        expect(theirs.body.data.map((i: { id: string }) => i.id)).not.toContain(c.body.id);
      });
    });

    describe('intent cards', () => {
      const scope = { operations: ['crm.read*', 'crm.search'], resources: ['crm://customers/*'], forbidden_operations: ['crm.delete*'] };
      const card = cardBody('crm-assistant', 'CRM assistant', scope, 900, [
        {
          id: 'no-bulk',
          when: 'action.operation == "crm.search" && size(action.arguments) > 3',
          decision: { kind: 'deny', reason: 'bulk', message: 'too broad' },
        },
      ]);

      it('installs, lists, gets, replaces and deletes a card (policy_write)', async () => {
        expect((await reader.post('/v1/intent-cards', card)).status).toBe(403);
        const created = await writer.post('/v1/intent-cards', card);
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ id: 'crm-assistant', shadow: false, version: 1, max_ttl_seconds: 900 });
        const got = await reader.get('/v1/intent-cards/crm-assistant');
        expect(got.status).toBe(200);
        expect(got.body.rules[0].id).toBe('no-bulk');
        const replaced = await writer.post('/v1/intent-cards', { ...card, shadow: true });
        expect(replaced.status).toBe(200);
        expect(replaced.body).toMatchObject({ version: 2, shadow: true });
        const list = await reader.get('/v1/intent-cards');
        expect(list.body.data.map((c: { id: string }) => c.id)).toContain('crm-assistant');
        expect((await otherOrg.get('/v1/intent-cards/crm-assistant')).status).toBe(404);
        expect((await otherOrg.delete('/v1/intent-cards/crm-assistant')).status).toBe(404);
        expect((await writer.delete('/v1/intent-cards/crm-assistant')).status).toBe(204);
        expect((await reader.get('/v1/intent-cards/crm-assistant')).status).toBe(404);
      });

      it('rejects an invalid CEL rule at install with the rule path', async () => {
        const res = await writer.post('/v1/intent-cards', {
          ...card,
          id: 'broken',
          rules: [{ id: 'r1', when: 'action.operation ==', decision: { kind: 'allow' } }],
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_request');
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain('rules[0].when');
        const { audiences: _audiences, ...noAudiences } = card;
        expect((await writer.post('/v1/intent-cards', { ...noAudiences, id: 'no-audiences' })).body).toMatchObject({
          code: 'invalid_request',
          message: 'audiences is required',
        });
        const noWhen = await writer.post('/v1/intent-cards', { ...card, id: 'no-when', rules: [{ id: 'r1', decision: { kind: 'allow' } }] });
        expect(noWhen.body).toMatchObject({ code: 'invalid_request', message: 'rules[0].when is required' });
        const kind = await writer.post('/v1/intent-cards', { ...card, id: 'broken2', rules: [{ id: 'r1', when: 'true', decision: { kind: 'substitute' } }] });
        expect(kind.status).toBe(400);
        // A condition that is not a bool (a bare field could be anything) is refused at install, not at decision time.
        for (const when of ['context.user', 'action.arguments.limit + 1', "'yes'"]) {
          const notBool = await writer.post('/v1/intent-cards', { ...card, id: 'not-bool', rules: [{ id: 'r1', when, decision: { kind: 'deny' } }] });
          expect({ when, status: notBool.status, path: notBool.body.details?.[0]?.path }).toEqual({ when, status: 400, path: 'rules[0].when' });
          expect(notBool.body.details[0].message).toMatch(/bool/);
        }
        expect((await reader.get('/v1/intent-cards/not-bool')).status).toBe(404);
      });
    });

    describe('approvals', () => {
      it("lists the org's approval requests (none yet) to any key, and scopes decisions", async () => {
        const list = await reader.get('/v1/approvals');
        expect(list.status).toBe(200);
        expect(list.body).toEqual({ data: [], next_cursor: null });
        expect((await reader.get('/v1/approvals?status=maybe')).body.details[0].path).toBe('status');
        expect((await reader.get('/v1/approvals/apr_missing')).status).toBe(404);
        const scoped = await reader.post('/v1/approvals/apr_missing/approve');
        expect(scoped.status).toBe(403);
        expect(scoped.body.code).toBe('insufficient_scope');
        expect((await writer.post('/v1/approvals/apr_missing/approve')).status).toBe(404);
        expect((await writer.post('/v1/approvals/apr_missing/deny', { reason: 'no' })).status).toBe(404);
      });
    });

    describe('rate limits', () => {
      it('429 with a whole-second Retry-After and RateLimit headers, per key, configurable per org', async () => {
        const org = await platform.post('/v1/orgs', { name: 'limited', rate_limit: { requests_per_second: 3, burst: 3 } });
        expect(org.status).toBe(201);
        const key = org.body.api_key.key;
        secrets.push(key);
        const statuses: number[] = [];
        let limited: Response | undefined;
        for (let i = 0; i < 6; i++) {
          const res = await fetch(`${sys.urls[i % sys.urls.length]}/v1/intentions`, { headers: { authorization: `Bearer ${key}` } });
          statuses.push(res.status);
          if (res.status === 200) expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
          if (res.status === 429) limited = res;
        }
        expect(statuses.filter((s) => s === 200)).toHaveLength(3);
        expect(limited).toBeDefined();
        expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(limited!.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(limited!.headers.get('ratelimit-policy')).toContain('q=3');
        expect(((await limited!.json()) as { code: string }).code).toBe('rate_limited');

        // Other keys are not affected, and the platform admin can change the org's limit.
        expect((await admin.get('/v1/intentions')).status).toBe(200);
        const patched = await platform.patch(`/v1/orgs/${org.body.org.id}`, { rate_limit: { requests_per_second: 50, burst: 60 } });
        expect(patched.status).toBe(200);
        expect(patched.body.rate_limit).toEqual({ requests_per_second: 50, burst: 60 });
        expect((await otherOrg.patch(`/v1/orgs/${org.body.org.id}`, { rate_limit: null })).status).toBe(401);
      });

      it('RateLimit counts the burst pool down too: a client told 0 is refused, never served', async () => {
        const org = await platform.post('/v1/orgs', { name: 'bursty', rate_limit: { requests_per_second: 2, burst: 5 } });
        const key = org.body.api_key.key;
        secrets.push(key);
        const first = await fetch(`${sys.url}/v1/intentions`, { headers: { authorization: `Bearer ${key}` } });
        expect(first.status).toBe(200);
        expect(first.headers.get('ratelimit-policy')).toBe('"default";q=2;w=1, "burst";q=3;w=10');
        // One more this second, and three from the pool: four requests this client may still send.
        expect(first.headers.get('ratelimit')).toMatch(/^"default";r=1;t=1, "burst";r=3;t=(9|10)$/);
        // Whenever the header says something is left, the next request is served (time only adds room).
        const left = (res: Response) => [...(res.headers.get('ratelimit') ?? '').matchAll(/;r=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
        let previous = first;
        for (let i = 0; i < 6; i++) {
          const res = await fetch(`${sys.url}/v1/intentions`, { headers: { authorization: `Bearer ${key}` } });
          if (left(previous) > 0) expect({ i, said: previous.headers.get('ratelimit'), status: res.status }).toMatchObject({ status: 200 });
          previous = res;
        }
      });
    });

    it('never writes a key or secret into its logs', async () => {
      const out = sys.output();
      expect(out.length).toBeGreaterThan(0);
      for (const s of secrets) expect(out).not.toContain(s);
      expect(out).not.toContain(writerKey);
    });
  });
}
