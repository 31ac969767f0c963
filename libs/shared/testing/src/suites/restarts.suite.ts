import Redis from 'ioredis';
import { client, type Client, type JsonResponse } from '../e2e/http-client';
import { testRedisUrl, type TestSystem } from '../e2e/system';
import { createPublishedIntention, crmCard, dispenseMandate, installCard, mandateOrg } from '../e2e/mandate-fixtures';

/**
 * A restart never forgets (DESIGN 4): revocations, cards and active intentions are rebuilt from
 * their owners' stores when a process starts, before it reports ready — after a graceful stop
 * (SIGTERM) and after a crash (SIGKILL), in both modes. In distributed mode the decision proxy
 * is the process restarted, also with the version board wiped (a Redis that lost its values) and
 * with the issuer down while it starts (not ready, and 503 — never an allow — until the issuer is back).
 */
export function describeRestarts(mode: 'embedded' | 'distributed', start: () => Promise<TestSystem>) {
  describe(`restarts never forget (${mode})`, () => {
    let sys: TestSystem;
    let writer: Client;
    let orgId: string;
    const cardId = 'restart-card';
    const proxyApp = mode === 'embedded' ? 'embedded' : 'decision-proxy';
    const card = crmCard(cardId, 'restart drill');
    const dispense = (intentId = cardId) => dispenseMandate(writer, { intentId, actor: 'agent:restart', promptId: 'prm_r' });
    const call = (credential: string): Promise<JsonResponse> =>
      writer.post(
        '/v1/mcp-proxy/call',
        {
          action: { surface: 'sdk', operation: 'crm.contacts.read', target_resource: 'crm://contacts/1' },
          context: { actor: 'agent:restart', prompt_id: 'prm_r' },
          audience: 'crm-api',
        },
        { 'x-service-mandate': credential },
      );
    const revoke = async (credId: string) => expect((await writer.post('/v1/mandate/revoke', { cred_id: credId, reason: 'restart drill' })).status).toBe(200);
    const expectRefused = async (credential: string) => {
      const res = await call(credential);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('mandate_invalid');
    };
    const expectAllowed = async (credential: string) => {
      const res = await call(credential);
      expect(res.status).toBe(200);
      expect(res.body.decision.kind).toBe('allow');
    };
    /** The restarted process's readiness, once it says ready (a probe would wait the same way); fails after 30 s. */
    const ready = async () => {
      const url = `${sys.processes.find((p) => p.name === proxyApp)!.url}/readyz`;
      for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
        const res = await fetch(url);
        const body = (await res.json()) as { checks: Record<string, string> };
        if (res.status === 200 || Date.now() > deadline) return body;
      }
    };
    const evaluate = () => writer.post('/v1/intent/evaluate', { tool_call: { name: 'restart_ledger_lookup', arguments: { account: 'acme' } } });

    beforeAll(async () => {
      sys = await start();
      const admin = client(sys.url, sys.adminKey);
      writer = client(sys.url, (await admin.post('/v1/api-keys', { name: 'restart-writer', scope: 'policy_write' })).body.key);
      await installCard(writer, card);
      await createPublishedIntention(writer, {
        label: 'restart.ledger_lookup',
        intent_class: 'lookup',
        display_name: 'Restart ledger lookup',
        description: 'Look up a ledger account during the restart drill',
      });
      const m = await dispense();
      orgId = mandateOrg(m.credential);
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it.each([
      ['a graceful stop (SIGTERM)', 'SIGTERM'],
      ['a crash (SIGKILL)', 'SIGKILL'],
    ] as const)('after %s a revoked mandate is refused and a live one allowed; cards and intentions are back', async (_how, signal) => {
      const revoked = await dispense();
      const live = await dispense();
      const answered = await call(revoked.credential);
      expect(answered.body.decision.kind).toBe('allow');
      await revoke(revoked.cred_id);
      await expectRefused(revoked.credential);
      expect((await evaluate()).body.outcome).toBe('allowed');

      await sys.restartService(proxyApp, signal);

      // Distributed: the proxy listens at once and loads its read models behind `/readyz`.
      const readiness = await ready();
      expect(readiness.checks.read_models).toBe('ok');
      await expectRefused(revoked.credential);
      await expectAllowed(live.credential);
      const evaluation = await evaluate();
      expect(evaluation.status).toBe(200);
      expect(evaluation.body).toMatchObject({ outcome: 'allowed', intent_label: 'restart.ledger_lookup' });
      // The decision answered before the stop is in the decision list after it (answered = stored).
      const listed = await writer.get(`/v1/mcp-proxy/decisions?cred_id=${revoked.cred_id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((d: { decision_id: string }) => d.decision_id)).toContain(answered.body.decision.decision_id);
    });

    it("a graceful stop (SIGTERM) runs the process's own shutdown to its end: exit code 0, never cut short by the signal", async () => {
      const proc = sys.processes.find((p) => p.name === proxyApp)!;
      const code = await proc.stop('SIGTERM');
      // Killed by SIGTERM (no code) means the shutdown did not finish: drains, relay marks, the store's close.
      expect({ code, signal: proc.child.signalCode }).toEqual({ code: 0, signal: null });
      await sys.startService(proxyApp);
      expect((await ready()).checks.read_models).toBe('ok');
      await expectAllowed((await dispense()).credential);
    });

    it.each([
      ['a graceful stop (SIGTERM)', 'SIGTERM'],
      ['a crash (SIGKILL)', 'SIGKILL'],
    ] as const)('after %s the evaluator still knows bindings and examples (DESIGN 6.15): certain stays certain, ruled out stays out', async (_how, signal) => {
      const tag = signal.toLowerCase();
      await createPublishedIntention(writer, {
        label: `restart.bound_${tag}`,
        intent_class: 'lookup',
        display_name: 'Restart drill: bound',
        description: 'Restart drill: a bound tool',
        tools: [`drill_${tag}.get_*`],
      });
      const taught = await createPublishedIntention(writer, {
        label: `restart.taught_${tag}`,
        intent_class: 'analysis',
        display_name: 'Restart drill: taught',
        description: 'Restart drill: warehouse questions',
      });
      const example = (query: string, covered: boolean) =>
        writer.post(`/v1/intentions/${taught}/examples`, { tool_call: { name: `drill_${tag}_sql`, arguments: { query } }, covered });
      expect((await example('select count(*) from orders where id = 1', true)).status).toBe(201);
      expect((await example('delete from orders where id = 1', false)).status).toBe(201);
      const decide = async () => ({
        bound: (await writer.post('/v1/intent/evaluate', { tool_call: { name: `drill_${tag}.get_entry`, arguments: { id: 'E-1' } } })).body,
        like: (
          await writer.post('/v1/intent/evaluate', {
            tool_call: { name: `drill_${tag}_sql`, arguments: { query: 'select count(*) from orders where id = 7' } },
          })
        ).body,
        ruledOut: (
          await writer.post('/v1/intent/evaluate', { tool_call: { name: `drill_${tag}_sql`, arguments: { query: 'delete from orders where id = 7' } } })
        ).body,
      });
      const expected = {
        bound: { outcome: 'allowed', intent_label: `restart.bound_${tag}`, classification_evidence: { classification_method: 'binding' } },
        like: { outcome: 'allowed', intent_label: `restart.taught_${tag}`, classification_evidence: { classification_method: 'example' } },
      };
      const before = await decide();
      expect(before).toMatchObject(expected);
      expect(before.ruledOut.intent_label).not.toBe(`restart.taught_${tag}`);

      await sys.restartService(mode === 'embedded' ? 'embedded' : 'intent-evaluator', signal);

      const after = await decide();
      expect(after).toMatchObject(expected);
      expect(after.ruledOut.intent_label).not.toBe(`restart.taught_${tag}`);
      expect(after.ruledOut.outcome).not.toBe('allowed');
    });

    it('a card deleted before the restart is not installed after it', async () => {
      const other = { ...card, id: 'restart-card-2' };
      await installCard(writer, other);
      const m = await dispense(other.id);
      await expectAllowed(m.credential);
      expect((await writer.delete(`/v1/intent-cards/${other.id}`)).status).toBe(204);
      await sys.restartService(proxyApp, 'SIGKILL');
      const res = await call(m.credential);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('intent_not_found');
    });

    if (mode === 'distributed') {
      it('a version board that lost its values (Redis flushed) does not make a restarted proxy forget a revocation', async () => {
        const revoked = await dispense();
        const live = await dispense();
        await revoke(revoked.cred_id);
        const redis = new Redis(testRedisUrl());
        try {
          expect(await redis.del(`igw:ver:revocations:${orgId}`)).toBe(1);
        } finally {
          redis.disconnect();
        }
        await sys.restartService('decision-proxy', 'SIGKILL');
        await expectRefused(revoked.credential);
        await expectAllowed(live.credential);
      });

      it('a proxy started while the issuer is down is not ready and answers 503, never an allow, until the issuer is back', async () => {
        const revoked = await dispense();
        const live = await dispense();
        await revoke(revoked.cred_id);
        await sys.stopService('mandate-issuer');
        await sys.restartService('decision-proxy', 'SIGKILL');

        const proxy = sys.processes.find((p) => p.name === 'decision-proxy')!;
        const notReady = await fetch(`${proxy.url}/readyz`);
        expect(notReady.status).toBe(503);
        expect(((await notReady.json()) as { checks: Record<string, string> }).checks.read_models).toBe('down');
        for (const m of [revoked, live]) {
          const res = await call(m.credential);
          expect(res.status).toBe(503);
          expect(res.body.code).toBe('unavailable');
        }

        await sys.startService('mandate-issuer');
        const deadline = Date.now() + 30_000;
        while ((await fetch(`${proxy.url}/readyz`)).status !== 200) {
          if (Date.now() > deadline) throw new Error('the decision proxy did not become ready after the issuer came back');
          await new Promise((r) => setTimeout(r, 200));
        }
        await expectRefused(revoked.credential);
        await expectAllowed(live.credential);
      });
    }
  });
}
