import { randomBytes } from 'node:crypto';
import { client, type Client } from '../e2e/http-client';
import { createPublishedIntention, crmCard, dispenseMandate, installCard } from '../e2e/mandate-fixtures';
import type { TestSystem } from '../e2e/system';
import { WebhookReceiver } from '../fakes/webhook-receiver.fake-server';

type Replicated = TestSystem & { internalToken: string };

/**
 * Issue 18: two replicas of every service behind the gateway. A change answered by one replica
 * decides the very next call on the other, addressed directly (the internal routes, with the
 * caller headers the gateway sends); webhooks are delivered once per event per endpoint; an
 * approval has one winner when both replicas are asked at once.
 */
export function describeReplicas(start: () => Promise<Replicated>) {
  describe('replicas that agree (distributed, two of every service)', () => {
    let sys: Replicated;
    let admin: Client;
    let writer: Client;
    let caller: { orgId: string; keyId: string; scope: string };
    let writerCaller: { orgId: string; keyId: string; scope: string };
    const unique = (p: string) => `${p}_${randomBytes(3).toString('hex')}`;
    /** A JSON client straight to the `i`-th replica of `app`, as the gateway calls it. */
    const replica = (app: string, i: number, as = caller): Client => {
      const p = sys.processes.filter((x) => x.name === app)[i];
      if (!p) throw new Error(`no replica ${i} of ${app}`);
      const headers = { 'x-igw-internal-token': sys.internalToken, 'x-igw-org-id': as.orgId, 'x-igw-key-id': as.keyId, 'x-igw-scope': as.scope };
      const c = client(p.url);
      return {
        ...c,
        get: (path, h) => c.get(path, { ...headers, ...h }),
        post: (path, b, h) => c.post(path, b, { ...headers, ...h }),
        delete: (path, h) => c.delete(path, { ...headers, ...h }),
      };
    };

    beforeAll(async () => {
      sys = await start();
      const org = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: unique('replicas') });
      expect(org.status).toBe(201);
      admin = client(sys.url, org.body.api_key.key);
      caller = { orgId: org.body.org.id, keyId: org.body.api_key.id, scope: 'admin' };
      const w = await admin.post('/v1/api-keys', { name: 'replica-writer', scope: 'policy_write' });
      writer = client(sys.url, w.body.key);
      writerCaller = { orgId: caller.orgId, keyId: w.body.id, scope: 'policy_write' };
    }, 240_000);

    afterAll(async () => {
      await sys?.stop();
    });

    it('runs two processes of every service', () => {
      const count = (app: string) => sys.processes.filter((p) => p.name === app).length;
      for (const app of ['policy-registry', 'approvals', 'intent-evaluator', 'mandate-issuer', 'decision-proxy', 'webhook-dispatcher'])
        expect({ app, n: count(app) }).toEqual({ app, n: 2 });
    });

    it('an intention published on one registry replica decides the very next evaluation on each evaluator replica; archived, the next ones too', async () => {
      const label = unique('replica.lookup');
      const created = await replica('policy-registry', 0).post('/v1/intentions', {
        label,
        intent_class: 'lookup',
        description: 'Look up a ledger account during the replica drill',
      });
      expect(created.status).toBe(201);
      expect((await replica('policy-registry', 0).post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      const call = { tool_call: { name: `${label.replace('.', '_')}`, arguments: { account: 'acme' } } };
      for (const i of [1, 0]) {
        const res = await replica('intent-evaluator', i).post('/v1/intent/evaluate', call);
        expect({ replica: i, status: res.status, label: res.body.intent_label }).toEqual({ replica: i, status: 200, label });
      }
      expect((await replica('policy-registry', 1).post(`/v1/intentions/${created.body.id}/archive`)).status).toBe(200);
      for (const i of [0, 1]) {
        const res = await replica('intent-evaluator', i).post('/v1/intent/evaluate', call);
        expect({ replica: i, label: res.body.intent_label }).not.toEqual({ replica: i, label });
      }
    });

    it('an example added on one registry replica makes the very next like call certain on each evaluator replica; removed, the next ones are not', async () => {
      const label = unique('replica.query');
      const created = await replica('policy-registry', 0).post('/v1/intentions', {
        label,
        intent_class: 'analysis',
        description: 'Read-only warehouse questions during the replica drill',
      });
      expect((await replica('policy-registry', 0).post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      const query = (day: string) => ({ tool_call: { name: 'warehouse_sql', arguments: { sql: `select count(*) from orders where day = '${day}'` } } });
      const added = await replica('policy-registry', 1, writerCaller).post(`/v1/intentions/${created.body.id}/examples`, {
        ...query('2026-11-01'),
        covered: true,
      });
      expect(added.status).toBe(201);
      for (const i of [0, 1]) {
        const res = await replica('intent-evaluator', i).post('/v1/intent/evaluate', query(`2026-11-0${i + 2}`));
        expect({ i, outcome: res.body.outcome, method: res.body.classification_evidence?.classification_method }).toEqual({
          i,
          outcome: 'allowed',
          method: 'example',
        });
      }
      expect((await replica('policy-registry', 0, writerCaller).delete(`/v1/intentions/${created.body.id}/examples/${added.body.id}`)).status).toBe(204);
      for (const i of [1, 0]) {
        const res = await replica('intent-evaluator', i).post('/v1/intent/evaluate', query('2026-11-09'));
        expect({ i, allowed: res.body.outcome === 'allowed' }).toEqual({ i, allowed: false });
      }
    });

    it('a card change and a revocation on one replica decide the very next call on each decision-proxy replica', async () => {
      const card = crmCard(unique('card'), 'replica drill');
      await installCard(writer, card);
      const { credential, cred_id } = await dispenseMandate(writer, { intentId: card.id, actor: 'agent:replicas', promptId: 'prm_r' });
      const call = (i: number, operation = 'crm.contacts.read') =>
        replica('decision-proxy', i).post(
          '/v1/mcp-proxy/call',
          {
            action: { surface: 'sdk', operation, target_resource: 'crm://contacts/1' },
            context: { actor: 'agent:replicas', prompt_id: 'prm_r' },
            audience: 'crm-api',
          },
          { 'x-service-mandate': credential },
        );
      for (const i of [0, 1]) expect({ i, kind: (await call(i)).body.decision?.kind }).toEqual({ i, kind: 'allow' });
      // The card gains a deny rule on registry replica 1: both proxy replicas deny the next call.
      const changed = await replica('policy-registry', 1, writerCaller).post('/v1/intent-cards', {
        ...card,
        rules: [{ id: 'deny-read', when: 'action.operation == "crm.contacts.read"', decision: { kind: 'deny', reason: 'frozen' } }],
      });
      expect(changed.status).toBe(200); // replaced, version + 1
      for (const i of [1, 0]) expect({ i, kind: (await call(i)).body.decision?.kind }).toEqual({ i, kind: 'deny' });
      for (const i of [0, 1]) expect({ i, kind: (await call(i, 'crm.notes.read')).body.decision?.kind }).toEqual({ i, kind: 'allow' });
      // Revoked on issuer replica 0: both proxy replicas refuse the mandate on the next call.
      expect((await replica('mandate-issuer', 0, writerCaller).post('/v1/mandate/revoke', { cred_id, reason: 'replica drill' })).status).toBe(200);
      for (const i of [1, 0]) {
        const res = await call(i, 'crm.notes.read');
        expect({ i, status: res.status, allowed: res.body.decision?.kind === 'allow' }).toEqual({ i, status: 401, allowed: false });
      }
    });

    it('delivers a webhook once per event per endpoint, though two dispatchers consume', async () => {
      const hook = await WebhookReceiver.start();
      try {
        expect((await admin.post('/v1/webhooks', { url: hook.url, events: ['intention.published'] })).status).toBe(201);
        const labels = Array.from({ length: 6 }, () => unique('hooked'));
        for (const label of labels)
          await createPublishedIntention(writer, { label, intent_class: 'lookup', display_name: label, description: 'Replica webhook drill' });
        const all = await hook.waitFor((r) => r.length >= labels.length, 30_000);
        // A little longer: a duplicate would arrive now.
        await new Promise((r) => setTimeout(r, 1500));
        const ids = hook.received.map((r) => r.id);
        expect(ids.length).toBe(labels.length);
        expect(new Set(ids).size).toBe(labels.length);
        expect(all.map((r) => r.json?.data?.label).sort()).toEqual([...labels].sort());
      } finally {
        await hook.close();
      }
    });

    it('gives an approval one winner when both replicas decide it at once', async () => {
      const label = unique('approve.lookup');
      await createPublishedIntention(writer, {
        label,
        intent_class: 'lookup',
        display_name: label,
        description: 'Look up a payout for the replica drill',
        approval_required: true,
      });
      const asked = await writer.post('/v1/intent/evaluate', { tool_call: { name: label.replace('.', '_'), arguments: { id: 'po_1' } } });
      expect(asked.body.outcome).toBe('pending_approval');
      const id = asked.body.approval_request_id as string;
      const [a, b] = await Promise.all([
        replica('approvals', 0).post(`/v1/approvals/${id}/approve`),
        replica('approvals', 1).post(`/v1/approvals/${id}/deny`, { reason: 'race' }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? 'approved' : 'denied';
      for (const i of [0, 1]) expect((await replica('approvals', i).get(`/v1/approvals/${id}`)).body.status).toBe(winner);
    });
  });
}
