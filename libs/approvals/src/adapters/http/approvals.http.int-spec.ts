import { randomBytes } from 'node:crypto';
import { headerCallers, startServiceTestApp } from '@igw/http';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APPROVALS_API, POLICY_REGISTRY_API, Topics, type ApprovalsApi } from '@igw/contracts';
import { FixedClock, type Scope } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { ApprovalsModule, APPROVALS_MIGRATIONS, type ApprovalsModuleOptions } from '../../approvals.module';
import { InProcessApprovalsClient } from '../in-process/in-process-approvals.client';
import { FakeRegistryTeacher } from '../../application/testing/fake-registry-teacher';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const schema = `it_approvals_${randomBytes(4).toString('hex')}`;

const registry = new FakeRegistryTeacher(['crm.export', 'crm.report']);
const startApp = (options: ApprovalsModuleOptions) =>
  startServiceTestApp(
    ApprovalsModule.register({ ...options, providers: [{ provide: POLICY_REGISTRY_API, useValue: registry }] }),
    headerCallers({ requireKey: true }),
  );

type As = { org?: string; key?: string; scope?: Scope };
/** A 400 `invalid_request` naming `path` among its details. */
const badParam = (path: string) => ({ status: 400, body: { code: 'invalid_request', details: expect.arrayContaining([expect.objectContaining({ path })]) } });
const AGENT: As = { key: 'key_agent', scope: 'read_only' };
const HUMAN: As = { key: 'key_human', scope: 'policy_write' };

describe('approvals over HTTP (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let app: NestFastifyApplication;
  let publicOnly: NestFastifyApplication;
  const clock = new FixedClock(new Date('2026-03-01T10:00:00.000Z'));

  const callOn = async (target: NestFastifyApplication, method: 'GET' | 'POST', path: string, body?: unknown, as: As = HUMAN) => {
    const res = await target.inject({
      method,
      url: path,
      headers: {
        'x-test-org': as.org ?? 'org_acme',
        'x-test-key': as.key ?? 'key_human',
        'x-test-scope': as.scope ?? 'policy_write',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, any>) : undefined };
  };
  const call = (method: 'GET' | 'POST', path: string, body?: unknown, as?: As) => callOn(app, method, path, body, as);
  let queued = 0;
  // A distinct call each time unless the test names one (a waiting call is not queued twice).
  const queue = (extra: Record<string, unknown> = {}, as: As = AGENT) =>
    call(
      'POST',
      '/internal/approvals',
      {
        source: 'evaluate',
        intent_label: 'crm.export',
        tool_name: 'export_customers',
        summary: 'export all customers',
        fingerprint: `fp_q${++queued}`,
        ...extra,
      },
      as,
    );
  const outboxTopics = async (id: string) =>
    (await db.query<{ topic: string }>(`SELECT topic FROM "${schema}"."outbox_events" WHERE envelope->'data'->>'id' = $1 ORDER BY seq`, [id])).map(
      (r) => r.topic,
    );

  beforeAll(async () => {
    db = openPostgresDatabase(url, schema, 8);
    await migrate(db, APPROVALS_MIGRATIONS);
    app = await startApp({ db, notifier: { nudge: () => undefined }, clock, sweepIntervalMs: 50, internalRoutes: true });
    publicOnly = await startApp({ db, notifier: { nudge: () => undefined }, clock, sweepIntervalMs: 0 });
  });

  afterAll(async () => {
    await app?.close();
    await publicOnly?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  it('queues a request over the internal route; any key of the org reads it; another key approves it', async () => {
    const created = await queue({ user_id: 'u_1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      source: 'evaluate',
      requested_by_key_id: 'key_agent',
      user_id: 'u_1',
      expires_at: '2026-03-01T10:15:00.000Z',
      decided_at: null,
    });
    expect(created.body).not.toHaveProperty('fingerprint');
    const id = created.body!['id'] as string;

    expect(await call('GET', `/v1/approvals/${id}`, undefined, AGENT)).toMatchObject({ status: 200, body: { id, status: 'pending' } });
    expect((await call('GET', '/v1/approvals?status=pending', undefined, AGENT)).body!['data'].map((a: { id: string }) => a.id)).toContain(id);

    expect(await call('POST', `/v1/approvals/${id}/approve`, undefined, AGENT)).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
    expect(await call('POST', `/v1/approvals/${id}/approve`, undefined, { key: 'key_agent', scope: 'admin' })).toMatchObject({
      status: 403,
      body: { code: 'self_approval' },
    });
    expect(await call('POST', `/v1/approvals/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved', decided_by_key_id: 'key_human' } });
    expect(await call('POST', `/v1/approvals/${id}/approve`, undefined, { key: 'key_other', scope: 'admin' })).toMatchObject({
      status: 409,
      body: { code: 'invalid_transition' },
    });
    expect(await call('POST', `/v1/approvals/${id}/deny`, { reason: 'late' }, { key: 'key_other', scope: 'admin' })).toMatchObject({
      status: 409,
      body: { code: 'invalid_transition' },
    });
    expect(await outboxTopics(id)).toEqual([Topics.ApprovalRequested.name, Topics.ApprovalApproved.name]);
  });

  it('denies with or without a reason and checks the body', async () => {
    const a = (await queue()).body!['id'] as string;
    const b = (await queue()).body!['id'] as string;
    expect(await call('POST', `/v1/approvals/${a}/deny`, { reason: 5 })).toMatchObject(badParam('reason'));
    expect(await call('POST', `/v1/approvals/${a}/deny`, { reason: 'x', colour: 'red' })).toMatchObject(badParam('colour'));
    expect(await call('POST', `/v1/approvals/${a}/deny`, { reason: 'too broad' })).toMatchObject({
      status: 200,
      body: { status: 'denied', reason: 'too broad' },
    });
    expect(await call('POST', `/v1/approvals/${b}/deny`)).toMatchObject({ status: 200, body: { status: 'denied', reason: null } });
    expect(await call('POST', `/v1/approvals/${b}/deny`, undefined, AGENT)).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
    expect(await outboxTopics(a)).toEqual([Topics.ApprovalRequested.name, Topics.ApprovalDenied.name]);
  });

  it('approve and deny take a teaching body on requests holding the evaluated call (DESIGN 6.15), checked field by field', async () => {
    const tool_call = { name: 'export_customers', arguments: { rows: 10 } };
    const created = await queue({ tool_call, conversation_context: [{ role: 'user', content: 'all of them' }] });
    expect(created.body).toMatchObject({ reason_code: 'approval_required', candidates: [], tool_call });
    expect(created.body).not.toHaveProperty('conversation_context');
    const id = created.body!['id'] as string;
    expect(await call('POST', `/v1/approvals/${id}/approve`, { intent_label: 'Not A Label' })).toMatchObject(badParam('intent_label'));
    expect(await call('POST', `/v1/approvals/${id}/approve`, { remember: 'yes' })).toMatchObject(badParam('remember'));
    expect(await call('POST', `/v1/approvals/${id}/approve`, { colour: 'red' })).toMatchObject(badParam('colour'));
    expect(await call('POST', `/v1/approvals/${id}/deny`, { intent_label: 'crm.report' })).toMatchObject(badParam('intent_label'));
    expect(await call('POST', `/v1/approvals/${id}/approve`, { intent_label: 'crm.gone' })).toMatchObject({
      status: 404,
      body: { code: 'intent_not_found', details: [{ path: 'intent_label' }] },
    });
    expect(await call('POST', `/v1/approvals/${id}/approve`, { remember: true, intent_label: 'crm.report' })).toMatchObject({
      status: 200,
      body: { status: 'approved', intent_label: 'crm.report', candidates: [{ intent_label: 'crm.export', intention_id: 'int_crm.export', confidence: 1 }] },
    });
    expect(registry.taught.get(id)).toMatchObject({
      tool_call,
      examples: [
        { intention_label: 'crm.report', covered: true },
        { intention_label: 'crm.export', covered: false },
      ],
    });
    expect((await call('GET', `/v1/approvals/${id}`)).body).toMatchObject({ intent_label: 'crm.report', tool_call });

    const proxy = (
      await queue({ source: 'mcp_proxy', intent_label: undefined, tool_name: undefined, intent_card_id: 'card_1', operation: 'crm.read', tool_call })
    ).body!;
    expect(proxy).toMatchObject({ reason_code: null, candidates: [], tool_call: null });
    expect(await call('POST', `/v1/approvals/${proxy['id']}/approve`, { remember: true })).toMatchObject(badParam('remember'));
    expect(await call('POST', `/v1/approvals/${proxy['id']}/deny`, { remember: true })).toMatchObject(badParam('remember'));
    expect(await call('POST', `/v1/approvals/${proxy['id']}/deny`, { remember: false })).toMatchObject({ status: 200, body: { status: 'denied' } });
  });

  it("answers 404 for another org's request on every route", async () => {
    const id = (await queue()).body!['id'] as string;
    const evil: As = { org: 'org_evil', key: 'key_evil', scope: 'admin' };
    for (const [method, path] of [
      ['GET', `/v1/approvals/${id}`],
      ['POST', `/v1/approvals/${id}/approve`],
      ['POST', `/v1/approvals/${id}/deny`],
      ['GET', '/v1/approvals/apr_unknown'],
    ] as const) {
      expect(await call(method, path, undefined, evil)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    }
    expect((await call('GET', '/v1/approvals', undefined, evil)).body).toEqual({ data: [], next_cursor: null });
    expect((await call('GET', `/v1/approvals/${id}`)).body!['status']).toBe('pending');
  });

  it('five concurrent approvals over HTTP: one 200, four 409', async () => {
    const id = (await queue()).body!['id'] as string;
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => call('POST', `/v1/approvals/${id}/approve`, undefined, { key: `key_h${i}`, scope: 'policy_write' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body!['code'] === 'invalid_transition')).toBe(true);
    expect(await outboxTopics(id)).toEqual([Topics.ApprovalRequested.name, Topics.ApprovalApproved.name]);
  });

  it('consume over the internal route: 404 until approved, then one 200 among concurrent calls, then 404', async () => {
    const consume = (fingerprint: unknown) => call('POST', '/internal/approvals/consume', { fingerprint }, AGENT);
    const id = (await queue({ fingerprint: 'fp_consume' })).body!['id'] as string;
    expect(await consume('fp_consume')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    await call('POST', `/v1/approvals/${id}/approve`);
    expect(
      await call('POST', '/internal/approvals/consume', { fingerprint: 'fp_consume' }, { org: 'org_evil', key: 'key_evil', scope: 'admin' }),
    ).toMatchObject({ status: 404 });
    const results = await Promise.all(Array.from({ length: 5 }, () => consume('fp_consume')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect(results.find((r) => r.status === 200)!.body).toMatchObject({ id, status: 'approved' });
    expect(await consume('fp_consume')).toMatchObject({ status: 404 });
    expect(await consume('')).toMatchObject(badParam('fingerprint'));
    expect(await call('POST', '/internal/approvals/consume', {}, AGENT)).toMatchObject(badParam('fingerprint'));
  });

  it('validates the internal create body', async () => {
    expect(await queue({ source: 'email' })).toMatchObject(badParam('source'));
    expect(await queue({ fingerprint: undefined })).toMatchObject(badParam('fingerprint'));
    expect(await queue({ ttl_seconds: 5 })).toMatchObject(badParam('ttl_seconds'));
    expect(await queue({ status: 'approved' })).toMatchObject(badParam('status'));
  });

  it('expires overdue requests: read as expired at once, stored and announced by the sweeper, then not decidable', async () => {
    const id = (await queue({ ttl_seconds: 30 }, { org: 'org_expiry', key: 'key_agent', scope: 'read_only' })).body!['id'] as string;
    const as: As = { org: 'org_expiry', key: 'key_human', scope: 'policy_write' };
    clock.advance(30_000);
    expect((await call('GET', `/v1/approvals/${id}`, undefined, as)).body!['status']).toBe('expired');
    expect((await call('GET', '/v1/approvals?status=expired', undefined, as)).body!['data'].map((a: { id: string }) => a.id)).toEqual([id]);
    const deadline = Date.now() + 5000;
    while ((await outboxTopics(id)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const [row] = await db.query<{ status: string }>(`SELECT status FROM "${schema}"."approval_requests" WHERE id = $1`, [id]);
    expect(row!.status).toBe('expired');
    expect(await call('POST', `/v1/approvals/${id}/approve`, undefined, as)).toMatchObject({ status: 409, body: { code: 'invalid_transition' } });
    await new Promise((r) => setTimeout(r, 150));
    expect(await outboxTopics(id)).toEqual([Topics.ApprovalRequested.name, Topics.ApprovalExpired.name]);
  });

  it('lists newest first, 50 by default, with a cursor; 400 naming a bad parameter', async () => {
    const as: As = { org: 'org_paging', key: 'key_human', scope: 'read_only' };
    const client = app.get<ApprovalsApi>(APPROVALS_API);
    const ids: string[] = [];
    for (let i = 0; i < 52; i++)
      ids.push(
        (
          await client.create(
            { orgId: 'org_paging', keyId: 'key_agent' },
            { source: 'mcp_proxy', operation: 'crm.read', summary: `s${i}`, fingerprint: `fp${i}` },
          )
        ).id,
      );
    const first = await call('GET', '/v1/approvals', undefined, as);
    expect(first.body!['data']).toHaveLength(50);
    expect(first.body!['data'][0].id).toBe(ids[51]);
    const rest = await call('GET', `/v1/approvals?cursor=${first.body!['next_cursor']}`, undefined, as);
    expect(rest.body).toMatchObject({ next_cursor: null });
    expect(rest.body!['data'].map((a: { id: string }) => a.id)).toEqual([ids[1], ids[0]]);
    expect((await call('GET', '/v1/approvals?limit=200', undefined, as)).body!['data']).toHaveLength(52);

    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['status=open', 'status'],
      ['status=pending&status=approved', 'status'],
      ['cursor=%25%25%25', 'cursor'],
    ] as const) {
      expect(await call('GET', `/v1/approvals?${query}`, undefined, as)).toMatchObject(badParam(path));
    }
  });

  it('exports the in-process client under APPROVALS_API', async () => {
    const client = app.get<ApprovalsApi>(APPROVALS_API);
    expect(client).toBeInstanceOf(InProcessApprovalsClient);
    const created = await client.create({ orgId: 'org_inproc', keyId: 'key_agent' }, { source: 'evaluate', summary: 's', fingerprint: 'fp_in' } as never);
    expect(await client.consume({ orgId: 'org_inproc', keyId: 'key_agent' }, 'fp_in')).toBeNull();
    await call('POST', `/v1/approvals/${created.id}/approve`, undefined, { org: 'org_inproc', key: 'key_human', scope: 'policy_write' });
    expect(await client.consume({ orgId: 'org_inproc', keyId: 'key_agent' }, 'fp_in')).toMatchObject({ id: created.id });
    expect(await client.consume({ orgId: 'org_inproc', keyId: 'key_agent' }, 'fp_in')).toBeNull();
  });

  it('serves the internal routes only when asked to, and keeps them out of OpenAPI', async () => {
    expect((await callOn(publicOnly, 'POST', '/internal/approvals', { source: 'evaluate', summary: 's', fingerprint: 'f' }, AGENT)).status).toBe(404);
    expect((await callOn(publicOnly, 'POST', '/internal/approvals/consume', { fingerprint: 'f' }, AGENT)).status).toBe(404);
    expect((await callOn(publicOnly, 'GET', '/v1/approvals', undefined, AGENT)).status).toBe(200);

    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(Object.keys(doc.paths['/v1/approvals'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/approvals/{id}'] ?? {})).toEqual(['get']);
    expect(doc.paths['/v1/approvals/{id}/approve']?.post).toBeDefined();
    expect(doc.paths['/v1/approvals/{id}/deny']?.post).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal'))).toEqual([]);
    expect(doc.components?.schemas?.['ApprovalListDto']).toBeDefined();
  });
});
