import { randomBytes } from 'node:crypto';
import { HttpPolicyRegistryClient, InternalCallerResolver, InternalServiceClient, startServiceTestApp } from '@igw/http';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ActiveIntentionsDto, IntentCardsSnapshotDto, POLICY_REGISTRY_API, type PolicyRegistryApi } from '@igw/contracts';
import { cardsKey, intentionsKey, MemoryVersionBoard } from '@igw/events';
import { type Scope } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { PolicyRegistryModule, POLICY_REGISTRY_MIGRATIONS, type PolicyRegistryModuleOptions } from '../../policy-registry.module';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const schema = `it_registry_${randomBytes(4).toString('hex')}`;

const TOKEN = 'internal-token-for-tests-0123456789abcdef';
const startApp = (options: PolicyRegistryModuleOptions, callers?: InternalCallerResolver) =>
  startServiceTestApp(PolicyRegistryModule.register(options), callers);

type As = { org?: string; scope?: Scope } | null;

describe('policy registry internal routes over HTTP (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let app: NestFastifyApplication;
  let publicOnly: NestFastifyApplication;
  /** The registry behind the internal token, listening, as HttpPolicyRegistryClient reaches it in distributed mode. */
  let overHttp: NestFastifyApplication;
  let httpClient: HttpPolicyRegistryClient;
  const board = new MemoryVersionBoard();

  const callOn = async (target: NestFastifyApplication, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, as: As = {}) => {
    const res = await target.inject({
      method,
      url: path,
      headers: {
        ...(as ? { 'x-test-org': as.org ?? 'org_acme', 'x-test-scope': as.scope ?? 'policy_write' } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, any>) : undefined };
  };
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, as?: As) => callOn(app, method, path, body, as);
  const active = (as?: As) => call('GET', '/internal/intentions/active', undefined, as);

  beforeAll(async () => {
    db = openPostgresDatabase(url, schema, 5);
    await migrate(db, POLICY_REGISTRY_MIGRATIONS);
    app = await startApp({ db, notifier: { nudge: () => undefined }, versionBoard: board, internalRoutes: true });
    publicOnly = await startApp({ db, notifier: { nudge: () => undefined } });
    overHttp = await startApp({ db, notifier: { nudge: () => undefined }, internalRoutes: true }, new InternalCallerResolver(TOKEN));
    await overHttp.listen(0, '127.0.0.1');
    const { port } = overHttp.getHttpServer().address() as { port: number };
    httpClient = new HttpPolicyRegistryClient(new InternalServiceClient(`http://127.0.0.1:${port}`, TOKEN, { service: 'policy-registry' }), 'svc:test');
  });

  afterAll(async () => {
    await app?.close();
    await publicOnly?.close();
    await httpClient?.close();
    await overHttp?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  it("answers the caller's org's active intentions with the version they correspond to", async () => {
    expect(await active()).toEqual({ status: 200, body: { version: 0, intentions: [], examples: [] } });

    const a = (
      await call('POST', '/v1/intentions', { label: 'crm.lookup', intent_class: 'lookup', data_elements: [{ data_source_id: 'crm', path: 'c.email' }] })
    ).body!;
    const b = (await call('POST', '/v1/purposes', { label: 'crm.export', intent_class: 'export', approval_required: true })).body!;
    await call('POST', '/v1/intentions', { label: 'draft.only', intent_class: 'other' });
    const other = (await call('POST', '/v1/intentions', { label: 'crm.lookup', intent_class: 'lookup' }, { org: 'org_other' })).body!;
    await call('POST', `/v1/intentions/${other['id']}/publish`, undefined, { org: 'org_other' });

    const pa = (await call('POST', `/v1/intentions/${a['id']}/publish`)).body!;
    const pb = (await call('POST', `/v1/purposes/${b['id']}/publish`)).body!;
    // The board was advanced before the publish answered.
    expect(await board.current(intentionsKey('org_acme'))).toBe(5);

    const res = await active({ scope: 'read_only' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 5, intentions: expect.any(Array), examples: [] });
    expect(new Set(res.body!['intentions'].map((i: { id: string }) => i.id))).toEqual(new Set([a['id'], b['id']]));
    expect(res.body!['intentions']).toEqual(
      expect.arrayContaining([
        { ...pa, org_version: 5 },
        { ...pb, org_version: 5 },
      ]),
    );
    // The wire format is the contract's DTO.
    expect(validateSync(plainToInstance(ActiveIntentionsDto, res.body), { forbidUnknownValues: true })).toEqual([]);

    await call('POST', `/v1/intentions/${a['id']}/archive`);
    expect(await active()).toMatchObject({ status: 200, body: { version: 6, intentions: [{ id: b['id'] }] } });
    expect(await active({ org: 'org_other' })).toMatchObject({ status: 200, body: { version: 2, intentions: [{ id: other['id'], org_version: 2 }] } });

    // The in-process client answers the same.
    const api = app.get<PolicyRegistryApi>(POLICY_REGISTRY_API);
    expect(await api.activeIntentions('org_acme')).toEqual((await active()).body);
  });

  it("answers one of the caller's org's intent cards, and 404 for another org's or an unknown id", async () => {
    const installed = await call('POST', '/v1/intent-cards', {
      id: 'crm-reader',
      name: 'CRM reader',
      allowed_scope: { operations: ['crm.read'], resources: ['crm://customers/*'] },
      audiences: ['crm-api'],
    });
    expect(installed.status).toBe(201);
    const got = await call('GET', '/internal/intent-cards/crm-reader', undefined, { scope: 'read_only' });
    expect(got).toEqual({ status: 200, body: installed.body });
    expect((await call('GET', '/internal/intent-cards/crm-reader', undefined, { org: 'org_other', scope: 'read_only' })).status).toBe(404);
    expect((await call('GET', '/internal/intent-cards/nope', undefined, { scope: 'read_only' })).status).toBe(404);
    const client = app.get<PolicyRegistryApi>(POLICY_REGISTRY_API);
    expect(await client.intentCard('org_acme', 'crm-reader')).toEqual(installed.body);
    expect(await client.intentCard('org_other', 'crm-reader')).toBeNull();
  });

  it("answers a snapshot of the caller's org's installed cards with the cards counter they correspond to", async () => {
    const reader = (org: string): As => ({ org, scope: 'read_only' });
    const write = (org: string): As => ({ org });
    const install = async (org: string, id: string, name = `card ${id}`) => {
      const res = await call(
        'POST',
        '/v1/intent-cards',
        { id, name, allowed_scope: { operations: ['crm.read'], resources: ['crm://customers/*'] }, audiences: ['crm-api'] },
        write(org),
      );
      expect([200, 201]).toContain(res.status);
      return res.body!;
    };
    const snapshot = (org: string) => call('GET', '/internal/intent-cards', undefined, reader(org));
    const org = 'org_cards_snap';
    const neighbour = 'org_cards_neighbour';

    expect(await snapshot(org)).toEqual({ status: 200, body: { version: 0, cards: [] } });
    await install(org, 'keep');
    await install(org, 'gone');
    const replaced = await install(org, 'keep', 'keep v2');
    const other = await install(org, 'other');
    expect((await call('DELETE', '/v1/intent-cards/gone', undefined, write(org))).status).toBe(204);
    await install(neighbour, 'gone');
    await install(neighbour, 'foreign');
    // 4 installs + 1 delete in this org; the board was advanced before the delete answered.
    expect(await board.current(cardsKey(org))).toBe(5);

    const res = await snapshot(org);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 5, cards: expect.any(Array) });
    expect(res.body!['cards']).toHaveLength(2);
    expect(res.body!['cards']).toEqual(
      expect.arrayContaining([
        { ...replaced, org_version: 5 },
        { ...other, org_version: 5 },
      ]),
    );
    expect(res.body!['cards'].some((c: Record<string, unknown>) => 'deleted' in c)).toBe(false);
    expect(validateSync(plainToInstance(IntentCardsSnapshotDto, res.body), { forbidUnknownValues: true })).toEqual([]);
    expect((await snapshot(neighbour)).body).toMatchObject({ version: 2, cards: expect.any(Array) });
    expect(new Set((await snapshot(neighbour)).body!['cards'].map((c: { id: string }) => c.id))).toEqual(new Set(['gone', 'foreign']));
    expect(await snapshot('org_without_cards')).toEqual({ status: 200, body: { version: 0, cards: [] } });

    // The list route does not shadow the card route, nor the other way round.
    expect(await call('GET', '/internal/intent-cards/keep', undefined, reader(org))).toEqual({ status: 200, body: replaced });
    expect((await call('GET', '/internal/intent-cards/gone', undefined, reader(org))).status).toBe(404);
    expect((await call('GET', '/internal/intent-cards', undefined, null)).status).toBe(401);

    // The in-process client and the HTTP client (distributed mode, through the internal token) answer the same.
    const api = app.get<PolicyRegistryApi>(POLICY_REGISTRY_API);
    expect(await api.intentCards(org)).toEqual(res.body);
    const overWire = await httpClient.intentCards(org);
    expect(overWire).toBeInstanceOf(IntentCardsSnapshotDto);
    expect(overWire).toEqual(res.body);
    expect((await httpClient.intentCards(neighbour)).version).toBe(2);
    expect(await httpClient.intentCards('org_without_cards')).toEqual({ version: 0, cards: [] });
    // The same client reads the other internal routes too.
    expect((await httpClient.activeIntentions(org)).version).toBe(0);
    expect(await httpClient.intentCard(org, 'keep')).toEqual(replaced);
    expect(await httpClient.intentCard(neighbour, 'keep')).toBeNull();
  });

  it('teaches and forgets over the internal routes, through the HTTP client and in-process alike', async () => {
    const org = 'org_teach_routes';
    const created = (await call('POST', '/v1/intentions', { label: 'crm.lookup', intent_class: 'lookup', tools: ['crm.get'] }, { org })).body!;
    await call('POST', `/v1/intentions/${created['id']}/publish`, undefined, { org });
    const body = (approval_id: string, intention_label = 'crm.lookup') => ({
      approval_id,
      tool_call: { name: 'crm.get', arguments: { id: 7 } },
      examples: [{ intention_label, covered: true }],
    });

    // The route itself: policy_write, 201, a bad body named, an unknown label passed on as 404 intent_not_found.
    expect((await call('POST', '/internal/intention-examples/teach', body('apr_r'), { org, scope: 'read_only' })).status).toBe(403);
    const first = await call('POST', '/internal/intention-examples/teach', body('apr_r'), { org });
    expect(first).toMatchObject({ status: 201, body: { examples: [{ intention_id: created['id'], source: 'approval', approval_id: 'apr_r' }] } });
    expect((await call('POST', '/internal/intention-examples/teach', { ...body('apr_x'), examples: [] }, { org })).body).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'examples' }],
    });
    expect((await call('DELETE', '/internal/intention-examples/taught/apr_r', undefined, { org, scope: 'read_only' })).status).toBe(403);
    expect((await call('DELETE', '/internal/intention-examples/taught/apr_r', undefined, { org })).status).toBe(204);

    // Over HTTP with the internal token: the same answers, a repeat stores nothing twice, refusals keep their code.
    const taught = await httpClient.teach(org, body('apr_h'));
    expect(await httpClient.teach(org, body('apr_h'))).toEqual(taught);
    await expect(httpClient.teach(org, body('apr_n', 'crm.nope'))).rejects.toMatchObject({
      kind: 'not_found',
      code: 'intent_not_found',
      extra: { details: [{ path: 'examples[0].intention_label' }] },
    });
    const snapshot = await httpClient.activeIntentions(org);
    expect(snapshot.examples?.map((e) => [e.id, e.approval_id, e.org_version])).toEqual([[taught.examples[0]!.id, 'apr_h', snapshot.version]]);
    expect(snapshot.intentions[0]).toMatchObject({ tools: ['crm.get'] });
    await httpClient.forgetTaught(org, 'apr_h');
    await httpClient.forgetTaught(org, 'apr_h');
    expect((await httpClient.activeIntentions(org)).examples).toEqual([]);

    const api = app.get<PolicyRegistryApi>(POLICY_REGISTRY_API);
    const inProcess = await api.teach(org, body('apr_p'));
    expect(inProcess.examples).toHaveLength(1);
    expect((await api.activeIntentions(org)).examples?.map((e) => e.id)).toEqual([inProcess.examples[0]!.id]);
    await api.forgetTaught(org, 'apr_p');
    expect(await board.current(intentionsKey(org))).toBe((await api.activeIntentions(org)).version);
  });

  it('previews a card draft over the internal route and in-process alike: draft first, nothing installed, refusals under card.', async () => {
    const org = 'org_card_preview';
    const card = { id: 'crm', name: 'CRM', allowed_scope: { operations: ['crm.read', 'crm.write'], resources: ['crm://**'] }, audiences: ['crm-api'] };
    expect((await call('POST', '/v1/intent-cards', card, { org })).status).toBe(201);
    const narrower = { ...card, name: 'CRM narrower', allowed_scope: { operations: ['crm.read'], resources: ['crm://**'] } };

    // The route: policy_write, the draft first in place of the installed card, nothing stored.
    expect((await call('POST', '/internal/intent-cards/preview', { card: narrower }, { org, scope: 'read_only' })).status).toBe(403);
    const previewed = await call('POST', '/internal/intent-cards/preview', { card: narrower }, { org });
    expect(previewed.status).toBe(200);
    expect(previewed.body!['cards'].map((c: { id: string; name: string }) => [c.id, c.name])).toEqual([['crm', 'CRM narrower']]);
    expect((await call('GET', '/v1/intent-cards/crm', undefined, { org })).body).toMatchObject({ name: 'CRM', version: 1 });

    // Over HTTP with the internal token, and in-process: the same snapshot; the install's refusal keeps its path.
    const overHttpPreview = await httpClient.previewIntentCard(org, narrower as never);
    expect(overHttpPreview.cards.map((c) => c.name)).toEqual(['CRM narrower']);
    const api = app.get<PolicyRegistryApi>(POLICY_REGISTRY_API);
    expect((await api.previewIntentCard(org, narrower as never)).cards.map((c) => c.name)).toEqual(['CRM narrower']);
    const bad = { ...narrower, rules: [{ id: 'r', when: 'action.operation ==', decision: { kind: 'deny' } }] };
    await expect(httpClient.previewIntentCard(org, bad as never)).rejects.toMatchObject({ extra: { details: [{ path: 'card.rules[0].when' }] } });
    // Another org's preview never sees this org's cards.
    expect((await httpClient.previewIntentCard('org_card_preview_other', { ...narrower, id: 'other' } as never)).cards.map((c) => c.id)).toEqual(['other']);
  });

  it('needs a caller, and takes the org from the caller only', async () => {
    expect((await active(null)).status).toBe(401);
    expect((await call('GET', '/internal/intentions/active?org_id=org_acme', undefined, { org: 'org_nobody' })).body).toEqual({
      version: 0,
      intentions: [],
      examples: [],
    });
  });

  it('serves the internal route only when asked to, and keeps it out of OpenAPI', async () => {
    expect((await callOn(publicOnly, 'GET', '/internal/intentions/active')).status).toBe(404);
    expect((await callOn(publicOnly, 'GET', '/internal/intent-cards')).status).toBe(404);
    expect((await callOn(publicOnly, 'GET', '/v1/intentions')).status).toBe(200);
    expect(publicOnly.get<PolicyRegistryApi>(POLICY_REGISTRY_API)).toBeDefined();

    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(doc.paths['/v1/intentions']).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal'))).toEqual([]);
  });
});
