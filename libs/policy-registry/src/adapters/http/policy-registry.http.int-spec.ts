import { randomBytes } from 'node:crypto';
import { startServiceTestApp } from '@igw/http';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { type Scope } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { PolicyRegistryModule, POLICY_REGISTRY_MIGRATIONS } from '../../policy-registry.module';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const schema = `it_registry_${randomBytes(4).toString('hex')}`;

describe('policy registry over HTTP (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let app: NestFastifyApplication;

  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, as: { org?: string; scope?: Scope } = {}) => {
    const res = await app.inject({
      method,
      url: path,
      headers: {
        'x-test-org': as.org ?? 'org_acme',
        'x-test-scope': as.scope ?? 'policy_write',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, any>) : undefined };
  };

  beforeAll(async () => {
    db = openPostgresDatabase(url, schema, 5);
    await migrate(db, POLICY_REGISTRY_MIGRATIONS);

    app = await startServiceTestApp(PolicyRegistryModule.register({ db, notifier: { nudge: () => undefined } }));
  });

  afterAll(async () => {
    await app?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  it('serves intentions and purposes as one resource with one label space', async () => {
    const created = await call('POST', '/v1/intentions', { label: 'crm.lookup', intent_class: 'lookup', status: 'active', id: 'ignored' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ label: 'crm.lookup', status: 'draft', version: 1, display_name: 'crm.lookup', ttl_minutes: 15 });
    expect(created.body!['id']).not.toBe('ignored');

    const clash = await call('POST', '/v1/purposes', { label: 'crm.lookup', intent_class: 'export' });
    expect(clash).toMatchObject({ status: 409, body: { code: 'label_conflict' } });
    const clashBack = await call('POST', '/v1/intentions', { label: 'crm.lookup', intent_class: 'export' });
    expect(clashBack).toMatchObject({ status: 409, body: { code: 'label_conflict' } });
    const purpose = await call('POST', '/v1/purposes', { label: 'crm.export', intent_class: 'export' });
    expect(purpose.status).toBe(201);

    const id = created.body!['id'] as string;
    expect(await call('GET', `/v1/purposes/${id}`)).toMatchObject({ status: 200, body: { id, label: 'crm.lookup' } });
    const listed = await call('GET', '/v1/intentions');
    expect(listed.body).toMatchObject({ next_cursor: null });
    expect((listed.body!['data'] as { label: string }[]).map((i) => i.label)).toEqual(['crm.export', 'crm.lookup']);

    expect(await call('POST', `/v1/purposes/${id}/publish`)).toMatchObject({ status: 200, body: { status: 'active', version: 2 } });
    expect(await call('POST', `/v1/intentions/${id}/publish`)).toMatchObject({ status: 200, body: { status: 'active', version: 2 } });
    expect(await call('POST', `/v1/intentions/${id}/archive`)).toMatchObject({ status: 200, body: { status: 'archived', version: 3 } });
    expect(await call('POST', `/v1/purposes/${id}/archive`)).toMatchObject({ status: 200, body: { status: 'archived', version: 3 } });
    expect(await call('POST', `/v1/intentions/${id}/publish`)).toMatchObject({ status: 409, body: { code: 'invalid_transition' } });
    expect((await call('GET', '/v1/purposes?status=archived')).body!['data']).toHaveLength(1);
  });

  it('checks scope, org and input', async () => {
    const created = await call('POST', '/v1/intentions', { label: 'scoped', intent_class: 'lookup' });
    const id = created.body!['id'] as string;
    expect(await call('POST', '/v1/intentions', { label: 'ro', intent_class: 'lookup' }, { scope: 'read_only' })).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope' },
    });
    expect(await call('POST', `/v1/intentions/${id}/publish`, undefined, { scope: 'read_only' })).toMatchObject({ status: 403 });
    expect((await call('GET', `/v1/intentions/${id}`, undefined, { scope: 'read_only' })).status).toBe(200);
    expect(await call('POST', '/v1/intentions', { label: 'admin-ok', intent_class: 'lookup' }, { scope: 'admin' })).toMatchObject({ status: 201 });

    for (const [method, path] of [
      ['GET', `/v1/intentions/${id}`],
      ['GET', `/v1/purposes/${id}`],
      ['POST', `/v1/intentions/${id}/publish`],
      ['POST', `/v1/purposes/${id}/archive`],
    ] as const) {
      expect(await call(method, path, undefined, { org: 'org_evil' })).toMatchObject({ status: 404, body: { code: 'not_found' } });
    }
    expect((await call('GET', '/v1/intentions', undefined, { org: 'org_evil' })).body).toEqual({ data: [], next_cursor: null });

    expect(await call('POST', '/v1/intentions', { label: 'x', intent_class: 'lookup', colour: 'red' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', details: [{ path: 'colour' }] },
    });
    expect(await call('POST', '/v1/intentions', { label: 'Bad Label', intent_class: 'lookup' })).toMatchObject({
      status: 400,
      body: { details: [{ path: 'label' }] },
    });
    expect(await call('GET', '/v1/intentions?limit=0')).toMatchObject({ status: 400, body: { code: 'invalid_request', details: [{ path: 'limit' }] } });
    expect(await call('GET', '/v1/intentions?limit=201')).toMatchObject({ status: 400, body: { details: [{ path: 'limit' }] } });
    expect(await call('GET', '/v1/intentions?status=live')).toMatchObject({ status: 400, body: { details: [{ path: 'status' }] } });
    expect(await call('GET', '/v1/intentions?cursor=%%%')).toMatchObject({ status: 400, body: { details: [{ path: 'cursor' }] } });
  });

  it('pages with next_cursor', async () => {
    const org = 'org_paging';
    for (let i = 0; i < 5; i++) await call('POST', '/v1/purposes', { label: `pg${i}`, intent_class: 'other' }, { org });
    const labels: string[] = [];
    let next: string | null = null;
    do {
      const page: { body?: Record<string, any> } = await call('GET', `/v1/intentions?limit=2${next ? `&cursor=${next}` : ''}`, undefined, { org });
      labels.push(...(page.body!['data'] as { label: string }[]).map((i) => i.label));
      next = page.body!['next_cursor'] as string | null;
    } while (next);
    expect(labels).toEqual(['pg4', 'pg3', 'pg2', 'pg1', 'pg0']);
  });

  it('installs, replaces, lists, reads and deletes intent cards', async () => {
    const body = {
      id: 'crm-assistant',
      name: 'CRM assistant',
      allowed_scope: { operations: ['crm.read'], resources: ['crm://customers/*'] },
      audiences: ['crm-api'],
      rules: [{ id: 'bulk', when: 'action.operation == "crm.export" && size(action.arguments) > 2', decision: { kind: 'approval' } }],
    };
    const first = await call('POST', '/v1/intent-cards', body);
    expect(first).toMatchObject({ status: 201, body: { id: 'crm-assistant', version: 1, shadow: false, max_ttl_seconds: 3600, description: '' } });
    const second = await call('POST', '/v1/intent-cards', { ...body, shadow: true });
    expect(second).toMatchObject({ status: 200, body: { version: 2, shadow: true, created_at: first.body!['created_at'] } });
    const generated = await call('POST', '/v1/intent-cards', { ...body, id: undefined });
    expect(generated.status).toBe(201);
    expect(generated.body!['id']).toMatch(/^card_[0-9a-f]{32}$/);

    expect((await call('GET', '/v1/intent-cards?limit=1')).body).toMatchObject({ data: [{ id: generated.body!['id'] }], next_cursor: expect.any(String) });
    expect(await call('GET', '/v1/intent-cards/crm-assistant', undefined, { scope: 'read_only' })).toMatchObject({ status: 200, body: { version: 2 } });
    expect(await call('GET', '/v1/intent-cards/crm-assistant', undefined, { org: 'org_evil' })).toMatchObject({ status: 404 });
    expect(await call('DELETE', '/v1/intent-cards/crm-assistant', undefined, { scope: 'read_only' })).toMatchObject({ status: 403 });
    expect(await call('DELETE', '/v1/intent-cards/crm-assistant', undefined, { org: 'org_evil' })).toMatchObject({ status: 404 });
    expect(await call('DELETE', '/v1/intent-cards/crm-assistant')).toEqual({ status: 204, body: undefined });
    expect(await call('GET', '/v1/intent-cards/crm-assistant')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await call('DELETE', '/v1/intent-cards/crm-assistant')).toMatchObject({ status: 404 });
  });

  it('refuses a card with bad rules, naming each path', async () => {
    const res = await call('POST', '/v1/intent-cards', {
      name: 'bad',
      allowed_scope: { operations: ['crm.{read,write}'], resources: ['*'] },
      audiences: ['crm-api'],
      rules: [
        { id: 'ok', when: 'true', decision: { kind: 'allow' } },
        { id: 'swap', when: 'true', decision: { kind: 'substitute' } },
        { id: 'broken', when: 'action.operation ==', decision: { kind: 'deny' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request' });
    expect((res.body!['details'] as { path: string }[]).map((d) => d.path)).toEqual([
      'allowed_scope.operations[0]',
      'rules[1].decision.replacement_action',
      'rules[2].when',
    ]);
    expect((await call('GET', '/v1/intent-cards')).body!['data']).toHaveLength(1);
  });

  it('documents every route under both intention prefixes in OpenAPI', () => {
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    for (const prefix of ['/v1/intentions', '/v1/purposes']) {
      expect(Object.keys(doc.paths[prefix] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
      expect(doc.paths[`${prefix}/{id}/publish`]?.post).toBeDefined();
      expect(doc.paths[`${prefix}/{id}/archive`]?.post).toBeDefined();
    }
    expect(Object.keys(doc.paths['/v1/intent-cards/{id}'] ?? {})).toEqual(expect.arrayContaining(['get', 'delete']));
    expect(doc.components?.schemas?.['IntentionListDto']).toBeDefined();
  });
});
