import Redis from 'ioredis';
import { client, dispenseMandate, mandateOrg, startDistributedSystem, testRedisUrl, type Client, type TestSystem } from '@igw/testing';

/**
 * DESIGN 6.9 / the fail-closed rule: when what a decision needs cannot be had, the proxy answers
 * 503 `unavailable`, never an allow. A current replica needs no other service for an allowed call;
 * the moment the version board says it is behind and the owner is unreachable, it refuses.
 */
describe('mcp-proxy fails closed (distributed)', () => {
  let sys: TestSystem;
  let writer: Client;
  let redis: Redis;
  let mandate: string;
  let orgId: string;
  const card = {
    id: 'fc-card',
    name: 'fail closed',
    allowed_scope: { operations: ['crm.**'], resources: ['crm://**'] },
    audiences: ['crm-api'],
    max_ttl_seconds: 3600,
    rules: [{ id: 'approve-refund', when: 'action.operation == "crm.refunds.create"', decision: { kind: 'approval' } }],
  };
  const call = (operation: string) =>
    writer.post(
      '/v1/mcp-proxy/call',
      { action: { surface: 'sdk', operation, target_resource: 'crm://x/1' }, context: { actor: 'agent:a', prompt_id: 'p1' }, audience: 'crm-api' },
      { 'x-service-mandate': mandate },
    );
  const stop = (name: string) => sys.processes.find((p) => p.name === name)!.stop();
  const bump = async (key: string) => {
    const k = `igw:ver:${key}:${orgId}`;
    await redis.set(k, String(Number((await redis.get(k)) ?? '0') + 1));
  };

  beforeAll(async () => {
    sys = await startDistributedSystem();
    redis = new Redis(testRedisUrl());
    const admin = client(sys.url, sys.adminKey);
    writer = client(sys.url, (await admin.post('/v1/api-keys', { name: 'fc', scope: 'policy_write' })).body.key);
    expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
    mandate = (await dispenseMandate(writer, { intentId: card.id, actor: 'agent:a', promptId: 'p1', ttlSeconds: 600 })).credential;
    orgId = mandateOrg(mandate);
    expect((await call('crm.contacts.read')).status).toBe(200);
  });

  afterAll(async () => {
    redis?.disconnect();
    await sys?.stop();
  });

  it('approvals down: an approval decision is 503, while allowed calls go on from memory', async () => {
    await stop('approvals');
    const res = await call('crm.refunds.create');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
    expect((await call('crm.contacts.read')).status).toBe(200);
  });

  it('issuer down: allowed calls go on while revocations are current; once the board says a revocation happened, 503', async () => {
    await stop('mandate-issuer');
    expect((await call('crm.contacts.read')).status).toBe(200);
    await bump('revocations');
    const res = await call('crm.contacts.read');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
  });

  it('registry down while a card change is pending: 503', async () => {
    await redis.del(`igw:ver:revocations:${orgId}`);
    await stop('policy-registry');
    await bump('cards');
    const res = await call('crm.contacts.read');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
  });
});
