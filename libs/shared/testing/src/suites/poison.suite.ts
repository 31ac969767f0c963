import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { client, type Client, type JsonResponse } from '../e2e/http-client';
import type { TestSystem } from '../e2e/system';
import { crmCard, dispenseMandate, installCard } from '../e2e/mandate-fixtures';

/** A decision record as a version before 0.7 journaled it (the fields the store needs). */
function journaledDecision(orgId: string, decisionId: string, operation: string) {
  return {
    decisionId,
    orgId,
    keyId: 'key_legacy',
    kind: 'allow',
    ruleId: null,
    stage: 'allow',
    reason: null,
    shadowKind: null,
    decision: { kind: 'allow', decision_id: decisionId },
    credId: 'mnd_legacy',
    intentId: 'poison-card',
    promptId: 'prm_p',
    actor: 'agent:poison',
    audience: 'crm-api',
    surface: 'sdk',
    operation,
    targetResource: null,
    argumentsSha256: '0'.repeat(64),
    approvalRequestId: null,
    reviewId: null,
    reviewStatus: null,
    reviewedAt: null,
    reviewedByKeyId: null,
    reviewNote: null,
    createdAt: new Date().toISOString(),
  };
}

/**
 * Poison never blocks (DESIGN 4, 6.12): the lone surrogate that once stopped decision storage for
 * every org and bricked the next start. Over HTTP it is refused at the edge (400) while other
 * orgs' concurrent decisions are all answered and stored. Below the edge — a decision journal
 * left by an older version holding a record the store refuses — the record is set aside, the
 * process starts, health shows it (`records: warn` with the count), the good records and every
 * new decision are stored, and the next restart succeeds too.
 *
 * `journalDir` is where the system's decision proxy looks for a legacy journal; `proxyApp` the
 * process to restart for it to be read.
 */
export function describePoison(mode: 'embedded' | 'distributed', start: () => Promise<TestSystem & { journalDir: string }>) {
  describe(`poison never blocks (${mode})`, () => {
    let sys: TestSystem & { journalDir: string };
    let writerA: Client;
    let writerB: Client;
    let orgB: string;
    let mandateA: string;
    let mandateB: string;
    const proxyApp = mode === 'embedded' ? 'embedded' : 'decision-proxy';
    const card = crmCard('poison-card', 'poison drill');

    const setUp = async (writer: Client) => {
      await installCard(writer, card);
      return (await dispenseMandate(writer, { intentId: card.id, actor: 'agent:poison', promptId: 'prm_p' })).credential;
    };
    const callAs = (writer: Client, mandate: string, operation: string): Promise<JsonResponse> =>
      writer.call(
        'POST',
        '/v1/mcp-proxy/call',
        `{"action":{"surface":"sdk","operation":${operation},"target_resource":"crm://contacts/1"},"context":{"actor":"agent:poison","prompt_id":"prm_p"},"audience":"crm-api"}`,
        { 'x-service-mandate': mandate },
      );
    const health = async () =>
      (await client(sys.url, sys.adminKey).get('/v1/health')).body as {
        status: string;
        checks: Record<string, string>;
        details?: Record<string, Record<string, unknown>>;
      };
    /** Where this mode's health reports the proxy's set-aside records. */
    const setAside = (h: Awaited<ReturnType<typeof health>>): number => {
      const records =
        mode === 'embedded' ? h.details?.['records'] : (h.details?.['decision_proxy'] as Record<string, Record<string, unknown>> | undefined)?.['records'];
      return Number(records?.['set_aside'] ?? 0);
    };

    beforeAll(async () => {
      sys = await start();
      const admin = client(sys.url, sys.adminKey);
      writerA = client(sys.url, (await admin.post('/v1/api-keys', { name: 'poison-a', scope: 'policy_write' })).body.key);
      const other = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: 'poison-other-org' });
      expect(other.status).toBe(201);
      orgB = other.body.org.id;
      const otherAdmin = client(sys.url, other.body.api_key.key);
      writerB = client(sys.url, (await otherAdmin.post('/v1/api-keys', { name: 'poison-b', scope: 'policy_write' })).body.key);
      [mandateA, mandateB] = [await setUp(writerA), await setUp(writerB)];
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it("a lone surrogate is a 400 at the edge; the other org's concurrent decisions are all answered and stored", async () => {
      const poison = Array.from({ length: 20 }, () => callAs(writerA, mandateA, '"crm.read\\ud800"'));
      const good = Array.from({ length: 40 }, () => callAs(writerB, mandateB, '"crm.contacts.read"'));
      const [bad, fine] = [await Promise.all(poison), await Promise.all(good)];
      for (const res of bad) {
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_request');
      }
      expect(fine.map((r) => r.status)).toEqual(Array(40).fill(200));
      for (const res of fine) expect((await writerB.get(`/v1/mcp-proxy/decisions/${res.body.decision.decision_id}`)).status).toBe(200);
      const h = await health();
      expect(h.checks['database']).toBe('ok');
      expect(setAside(h)).toBe(0);
    });

    it('a record the store refuses, left in an old journal, is set aside at start: the start succeeds, health shows it, everything else is stored, the next start succeeds', async () => {
      const before = setAside(await health());
      await sys.stopService(proxyApp);
      const good = journaledDecision(orgB, `dec_legacy_good_${Date.now()}`, 'crm.contacts.read');
      const poison = journaledDecision(orgB, `dec_legacy_poison_${Date.now()}`, 'crm.read\ud800');
      mkdirSync(sys.journalDir, { recursive: true });
      // JSON.stringify writes the lone surrogate as the escape \ud800, which jsonb refuses.
      writeFileSync(join(sys.journalDir, 'segment-000000000001.ndjson'), `${JSON.stringify(poison)}\n${JSON.stringify(good)}\n`);
      await sys.startService(proxyApp);

      expect((await writerB.get(`/v1/mcp-proxy/decisions/${good.decisionId}`)).status).toBe(200);
      expect((await writerB.get(`/v1/mcp-proxy/decisions/${poison.decisionId}`)).status).toBe(404);
      const h = await health();
      expect(h.status).toBe('degraded');
      expect(setAside(h)).toBe(before + 1);
      // Decisions go on, for both orgs, and are stored.
      for (const [writer, mandate] of [
        [writerA, mandateA],
        [writerB, mandateB],
      ] as const) {
        const res = await callAs(writer, mandate, '"crm.contacts.read"');
        expect(res.status).toBe(200);
        expect((await writer.get(`/v1/mcp-proxy/decisions/${res.body.decision.decision_id}`)).status).toBe(200);
      }

      await sys.restartService(proxyApp, 'SIGKILL');
      expect((await callAs(writerB, mandateB, '"crm.contacts.read"')).status).toBe(200);
      expect(setAside(await health())).toBe(before + 1);
    });
  });
}
