import { Kafka, logLevel } from 'kafkajs';
import { Topics } from '@igw/contracts';
import { client, runAppToExit, startDistributedSystem, startPostgresInstance, testKafkaBrokers, type PostgresInstance } from '@igw/testing';

type System = Awaited<ReturnType<typeof startDistributedSystem>>;

/** One distributed system for the enclosing describe, started before and stopped after it. */
function withSystem(): () => System {
  let sys: System;
  beforeAll(async () => {
    sys = await startDistributedSystem();
  });
  afterAll(async () => sys?.stop());
  return () => sys;
}

describe('distributed mode', () => {
  describe('events', () => {
    const system = withSystem();

    it('a published intention reaches Kafka through the outbox as a versioned envelope', async () => {
      const sys = system();
      const kafka = new Kafka({ clientId: 'e2e', brokers: testKafkaBrokers().split(','), logLevel: logLevel.NOTHING });
      // A fresh broker has no topics yet: create it first, as the services' bus does.
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic: Topics.IntentionPublished.name }], waitForLeaders: true });
      await admin.disconnect();
      const consumer = kafka.consumer({ groupId: `e2e-${Date.now()}` });
      const seen: Array<Record<string, any>> = [];
      await consumer.connect();
      await consumer.subscribe({ topic: Topics.IntentionPublished.name, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void seen.push(JSON.parse(message.value!.toString())) });
      try {
        const api = client(sys.url, sys.adminKey);
        const created = await api.post('/v1/intentions', { label: `e2e.kafka.${Date.now()}`, intent_class: 'lookup' });
        expect(created.status).toBe(201);
        expect((await api.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
        const deadline = Date.now() + 30_000;
        while (!seen.some((e) => e.data?.id === created.body.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        const event = seen.find((e) => e.data?.id === created.body.id)!;
        expect(event).toMatchObject({
          id: expect.stringMatching(/^evt_/),
          type: 'policy.intention.published.v1',
          schema_version: 1,
          data: { id: created.body.id, status: 'active', version: 2 },
        });
        expect(typeof event.org_id).toBe('string');
      } finally {
        await consumer.disconnect();
      }
    });

    it('a service refuses callers that did not come through the gateway', async () => {
      const sys = system();
      const registry = sys.processes.find((p) => p.name === 'policy-registry')!;
      const direct = await client(registry.url).get('/v1/intentions', { 'x-igw-org-id': 'org_x', 'x-igw-key-id': 'k', 'x-igw-scope': 'admin' });
      expect(direct.status).toBe(401);
      const forged = await client(registry.url).get('/v1/intentions', {
        'x-igw-internal-token': 'wrong'.repeat(8),
        'x-igw-org-id': 'org_x',
        'x-igw-key-id': 'k',
        'x-igw-scope': 'admin',
      });
      expect(forged.status).toBe(401);
    });
  });

  describe('approvals behind the gateway', () => {
    const system = withSystem();

    it('a queued request is decided once, never by the key that caused it, and consumed once', async () => {
      const sys = system();
      const platform = client(sys.url, sys.platformKey);
      const org = await platform.post('/v1/orgs', { name: 'approvers' });
      const requester = client(sys.url, org.body.api_key.key);
      const approverKey = await requester.post('/v1/api-keys', { name: 'approver', scope: 'policy_write' });
      const approver = client(sys.url, approverKey.body.key);
      // Another service (the evaluator) queues requests over the internal route.
      const service = sys.processes.find((p) => p.name === 'approvals')!;
      const internal = client(service.url, undefined);
      const headers = {
        'x-igw-internal-token': sys.internalToken,
        'x-igw-org-id': org.body.org.id,
        'x-igw-key-id': org.body.api_key.id,
        'x-igw-scope': 'admin',
      };
      const queue = (fingerprint: string) =>
        internal.post(
          '/internal/approvals',
          { source: 'evaluate', intent_label: 'crm.export', tool_name: 'crm_export', summary: 'export customers', fingerprint },
          headers,
        );
      const first = await queue('fp-1');
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ status: 'pending', source: 'evaluate', requested_by_key_id: org.body.api_key.id });
      expect((await client(sys.url).post('/internal/approvals', {})).status).toBe(404);

      const listed = await approver.get('/v1/approvals?status=pending');
      expect(listed.body.data.map((a: { id: string }) => a.id)).toContain(first.body.id);
      const self = await requester.post(`/v1/approvals/${first.body.id}/approve`);
      expect(self.status).toBe(403);
      expect(self.body.code).toBe('self_approval');
      const race = await Promise.all([1, 2, 3].map(() => approver.post(`/v1/approvals/${first.body.id}/approve`)));
      expect(race.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect(race.find((r) => r.status === 409)!.body.code).toBe('invalid_transition');
      expect((await client(sys.url, sys.adminKey).get(`/v1/approvals/${first.body.id}`)).status).toBe(404);

      const consume = (fp: string) => internal.post('/internal/approvals/consume', { fingerprint: fp }, headers);
      expect((await consume('fp-1')).status).toBe(200);
      expect((await consume('fp-1')).status).toBe(404);

      const second = await queue('fp-2');
      const denied = await approver.post(`/v1/approvals/${second.body.id}/deny`, { reason: 'not today' });
      expect(denied.body).toMatchObject({ status: 'denied', reason: 'not today' });
      expect((await consume('fp-2')).status).toBe(404);
    });
  });

  describe('fail closed with the database down', () => {
    let pg: PostgresInstance;
    let sys: System;
    beforeAll(async () => {
      pg = await startPostgresInstance();
      sys = await startDistributedSystem({ databaseUrl: pg.url });
    }, 120_000);
    afterAll(async () => {
      await sys?.stop();
      await pg?.destroy();
    });

    it('answers 503 unavailable while PostgreSQL is stopped and recovers without a restart', async () => {
      const admin = client(sys.url, sys.adminKey);
      const created = await admin.post('/v1/intentions', { label: 'before.outage', intent_class: 'lookup' });
      expect(created.status).toBe(201);
      const lookup = await admin.post('/v1/intentions', {
        label: 'outage.ticket_lookup',
        description: 'Read a Zendesk ticket.',
        intent_class: 'lookup',
        tools: ['zendesk.get_ticket'],
      });
      await admin.post(`/v1/intentions/${lookup.body.id}/publish`);
      const call = { tool_call: { name: 'zendesk.get_ticket', arguments: { ticket_id: 'T-1' } } };
      expect((await admin.post('/v1/intent/evaluate', call)).body.outcome).toBe('allowed');

      await pg.stop();
      const during = [
        await admin.get('/v1/intentions'),
        await admin.post('/v1/intentions', { label: 'during.outage', intent_class: 'lookup' }),
        await admin.post(`/v1/intentions/${created.body.id}/publish`),
        await admin.post('/v1/api-keys', { name: 'x', scope: 'read_only' }),
        await admin.get('/v1/intent-cards'),
        // The read model is warm, but an evaluation that cannot be recorded is never answered.
        await admin.post('/v1/intent/evaluate', call),
        await admin.get('/v1/intent/history'),
      ];
      for (const res of during) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ code: 'unavailable', message: expect.any(String) });
      }
      const health = await admin.get('/v1/health');
      expect(health.status).toBe(503);
      expect(health.body.checks.database).toBe('down');
      expect((await client(sys.url).get('/readyz')).status).toBe(503);

      await pg.start();
      const deadline = Date.now() + 30_000;
      let after = await admin.get('/v1/intentions');
      while (after.status !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        after = await admin.get('/v1/intentions');
      }
      expect(after.status).toBe(200);
      // Nothing crashed: the same processes answered before, during and after the outage.
      for (const p of sys.processes) expect(p.child.exitCode).toBeNull();
      expect(after.body.data.map((i: { label: string }) => i.label)).toContain('before.outage');
      expect((await admin.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      expect((await admin.post('/v1/intent/evaluate', call)).body.outcome).toBe('allowed');
      expect((await admin.get('/v1/health')).status).toBe(200);
    }, 120_000);
  });

  describe('start-up misconfiguration', () => {
    it.each([
      ['api-gateway', { GATEWAY_MODE: 'distributed' }, /DATABASE_URL/],
      [
        'api-gateway',
        { GATEWAY_MODE: 'distributed', DATABASE_URL: 'postgresql://x@127.0.0.1/x', KAFKA_BROKERS: 'k:1', REDIS_URL: 'redis://r', INTERNAL_AUTH_TOKEN: 'short' },
        /INTERNAL_AUTH_TOKEN/,
      ],
      ['policy-registry', { GATEWAY_MODE: 'distributed', PORT: 'eighty' }, /PORT must be an integer/],
      ['embedded', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    ])('%s prints one clear line and exits non-zero', async (app, env, pattern) => {
      const { code, output } = await runAppToExit(app, env as Record<string, string>);
      expect(code).not.toBe(0);
      const lines = output.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(pattern);
      expect(output).not.toMatch(/\n\s+at /);
    });
  });
});
