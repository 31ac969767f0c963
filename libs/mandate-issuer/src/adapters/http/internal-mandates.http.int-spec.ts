import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { MANDATE_ISSUER_API, POLICY_REGISTRY_API, Topics, type MandateIssuerApi } from '@igw/contracts';
import { MemoryVersionBoard, revocationsKey } from '@igw/events';
import { HttpMandateIssuerClient, internalCallerHeaders, InternalCallerResolver, InternalServiceClient, startServiceTestApp } from '@igw/http';
import { DependencyUnavailableError, type Caller } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { CREDENTIAL_BROKERS } from '../../application/brokers';
import { FakeCredentialBrokers } from '../../application/testing/fake-credential-brokers.fake';
import { FakeIntentCards, intentCardDto } from '../../application/testing/fake-intent-cards.fake';
import { MandateIssuerModule, type MandateIssuerModuleOptions } from '../../mandate-issuer.module';
import { MANDATE_ISSUER_MIGRATIONS } from '../prisma/mandate-issuer-prisma.client';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const schema = `it_issuer_http_${randomBytes(4).toString('hex')}`;
const TOKEN = 'internal-token-for-tests-0123456789abcdef';
const ORG = 'org_acme';
const OTHER = 'org_other';
const writer: Caller = { orgId: ORG, keyId: 'key_writer', scope: 'policy_write' };
const proxy: Caller = { orgId: ORG, keyId: 'svc:decision-proxy', scope: 'read_only' };

describe('mandate issuer internal revocations route over HTTP (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let app: NestFastifyApplication;
  let publicOnly: NestFastifyApplication;
  let baseUrl: string;
  const board = new MemoryVersionBoard();
  const http: InternalServiceClient[] = [];

  const options = (extra: Partial<MandateIssuerModuleOptions>): MandateIssuerModuleOptions => ({
    db,
    notifier: { nudge: () => undefined },
    kek: randomBytes(32),
    brokers: [{ provide: CREDENTIAL_BROKERS, useValue: new FakeCredentialBrokers() }],
    providers: [{ provide: POLICY_REGISTRY_API, useValue: new FakeIntentCards().install(ORG, intentCardDto()).install(OTHER, intentCardDto()) }],
    versionBoard: board,
    ...extra,
  });
  const call = async (target: NestFastifyApplication, method: 'GET' | 'POST', path: string, as: Caller | null, body?: unknown) => {
    const res = await target.inject({
      method,
      url: path,
      headers: { ...(as ? internalCallerHeaders(TOKEN, as) : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, any>) : undefined };
  };
  const dispense = async (as: Caller = writer) => {
    const res = await call(app, 'POST', '/v1/mandate/dispense', as, {
      actor: 'agent:bot',
      intent_id: 'crm',
      prompt_id: 'prm_1',
      audience: 'crm-api',
      requested_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/1'] },
    });
    expect(res).toMatchObject({ status: 200 });
    return res.body as { cred_id: string; expires_at: string };
  };
  const revoke = (credId: string, as: Caller = writer) => call(app, 'POST', '/v1/mandate/revoke', as, { cred_id: credId });
  const client = (target = baseUrl) => {
    const c = new InternalServiceClient(target, TOKEN, { service: 'mandate-issuer', timeoutMs: 2000 });
    http.push(c);
    return new HttpMandateIssuerClient(c, 'svc:decision-proxy');
  };
  const revokedEvents = async () =>
    (
      await db.query<{ envelope: { org_id: string; data: { cred_id: string; revocation_version?: number } } }>(
        `SELECT envelope FROM "${schema}"."outbox_events" WHERE topic = $1 ORDER BY seq`,
        [Topics.MandateRevoked.name],
      )
    ).map((r) => r.envelope);

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    db = openPostgresDatabase(url, schema, 8);
    await migrate(db, MANDATE_ISSUER_MIGRATIONS);
    app = await startServiceTestApp(MandateIssuerModule.register(options({ internalRoutes: true })), new InternalCallerResolver(TOKEN));
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    publicOnly = await startServiceTestApp(MandateIssuerModule.register(options({})), new InternalCallerResolver(TOKEN));
  });

  afterAll(async () => {
    await Promise.all(http.map((c) => c.close()));
    await app?.close();
    await publicOnly?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  it('POST /v1/mandate/revoke advances the board before it answers and numbers mandate.revoked; a repeat revoke does not', async () => {
    const a = await dispense();
    const b = await dispense();
    expect(await board.current(revocationsKey(ORG))).toBe(0);

    expect((await revoke(a.cred_id)).status).toBe(200);
    expect(await board.current(revocationsKey(ORG))).toBe(1);
    expect((await revoke(a.cred_id)).status).toBe(200);
    expect(await board.current(revocationsKey(ORG))).toBe(1);
    expect((await revoke(b.cred_id)).status).toBe(200);
    expect(await board.current(revocationsKey(ORG))).toBe(2);

    expect((await revokedEvents()).map((e) => [e.org_id, e.data.cred_id, e.data.revocation_version])).toEqual([
      [ORG, a.cred_id, 1],
      [ORG, b.cred_id, 2],
    ]);
  });

  it('HttpMandateIssuerClient reads the caller’s org’s revocations through the route, as the in-process API does', async () => {
    const c = await dispense();
    await revoke(c.cred_id);
    const theirs = await dispense({ ...writer, orgId: OTHER });
    await revoke(theirs.cred_id, { ...writer, orgId: OTHER });

    const remote = client();
    const inProcess = app.get<MandateIssuerApi>(MANDATE_ISSUER_API);
    const all = await remote.revocationsSince(ORG, 0);
    expect(all.version).toBe(3);
    expect(all.revoked).toHaveLength(3);
    expect(all.revoked.at(-1)).toEqual({ cred_id: c.cred_id, expires_at: c.expires_at });
    expect(await inProcess.revocationsSince(ORG, 0)).toEqual(all);
    expect(await remote.revocationsSince(ORG, 2)).toEqual({ version: 3, revoked: [{ cred_id: c.cred_id, expires_at: c.expires_at }] });
    expect(await remote.revocationsSince(ORG, 3)).toEqual({ version: 3, revoked: [] });
    expect(await remote.revocationsSince(OTHER, 0)).toEqual({ version: 1, revoked: [{ cred_id: theirs.cred_id, expires_at: theirs.expires_at }] });
    expect(await remote.revocationsSince('org_nobody', 0)).toEqual({ version: 0, revoked: [] });
    expect(publicOnly.get<MandateIssuerApi>(MANDATE_ISSUER_API)).toBeDefined();
  });

  it.each(['', '?after=', '?after=-1', '?after=1.5', '?after=abc', '?after=1e3', '?after=0x10', '?after=1&after=2', '?after=9999999999999999'])(
    '400 invalid_request for %s',
    async (query) => {
      const res = await call(app, 'GET', `/internal/mandates/revocations${query}`, proxy);
      expect(res).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    },
  );

  it('needs the internal token and caller headers, and reads the caller’s org only', async () => {
    expect((await call(app, 'GET', '/internal/mandates/revocations?after=0', null)).status).toBe(401);
    const res = await call(app, 'GET', '/internal/mandates/revocations?after=0&org_id=org_acme', { ...proxy, orgId: 'org_nobody' });
    expect(res).toEqual({ status: 200, body: { version: 0, revoked: [] } });
  });

  it('serves the route only when asked to, and keeps it out of OpenAPI', async () => {
    expect((await call(publicOnly, 'GET', '/internal/mandates/revocations?after=0', proxy)).status).toBe(404);
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(doc.paths['/v1/mandate/revoke']).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal'))).toEqual([]);
  });

  it('an issuer that cannot be reached is DependencyUnavailableError (503)', async () => {
    const down = new HttpMandateIssuerClient(
      new InternalServiceClient('http://127.0.0.1:1', TOKEN, { service: 'mandate-issuer', timeoutMs: 1000 }),
      'svc:decision-proxy',
    );
    const err = await down.revocationsSince(ORG, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailableError);
    expect(err).toMatchObject({ dependency: 'mandate-issuer' });
    await down.close();
  });
});
