import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../e2e/app-process';
import { client, type Client } from '../e2e/http-client';
import { createPublishedIntention, crmCard, dispenseMandate, installCard } from '../e2e/mandate-fixtures';
import { drillLoops, isExpected, isUnavailable, RequestStream } from '../e2e/request-stream';
import type { TestSystem } from '../e2e/system';

const SERVICES = ['policy-registry', 'approvals', 'intent-evaluator', 'mandate-issuer', 'webhook-dispatcher', 'decision-proxy'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 18: every service's replicas restarted one at a time (SIGTERM: readiness false, in-flight
 * requests finish, consumers stop, the outbox flushes) under a steady stream of decisions and
 * evaluations. No request fails but with a 503 a client retries, and every answered record is in
 * the store afterwards. The counts go to tmp/test-output/rolling-restart.json.
 */
export function describeRollingRestart(start: () => Promise<TestSystem>) {
  describe('rolling restart under load (distributed, two of every service)', () => {
    let sys: TestSystem;
    let admin: Client;
    let stream: RequestStream;

    beforeAll(async () => {
      sys = await start();
      admin = client(sys.url, sys.adminKey);
      const key = async (name: string, scope: string) => (await admin.post('/v1/api-keys', { name, scope })).body.key as string;
      const writer = client(sys.url, await key('rolling-writer', 'policy_write'));
      const agentKey = await key('rolling-agent', 'read_only');
      const card = crmCard('rolling-card', 'rolling restart', [
        { id: 'deny-export', when: 'action.operation == "crm.contacts.export"', decision: { kind: 'deny', reason: 'bulk_export' } },
      ]);
      await installCard(writer, card);
      const { credential } = await dispenseMandate(writer, { intentId: card.id, actor: 'agent:rolling', promptId: 'prm_roll' });
      await createPublishedIntention(writer, {
        label: 'rolling.ledger_lookup',
        intent_class: 'lookup',
        display_name: 'Ledger lookup',
        description: 'Look up a ledger account',
      });
      const { decision, evaluation: evaluating } = drillLoops({ credential, actor: 'agent:rolling', promptId: 'prm_roll' });
      const evaluation = (name: string) => evaluating(name, 'rolling_ledger_lookup');
      stream = new RequestStream(
        sys.url,
        agentKey,
        [
          decision('decision-allow-1', 'allow', 'crm.contacts.read'),
          decision('decision-allow-2', 'allow', 'crm.notes.read'),
          decision('decision-deny', 'deny', 'crm.contacts.export'),
          evaluation('evaluation-1'),
          evaluation('evaluation-2'),
        ],
        { pauseMs: 20 },
      );
    }, 240_000);

    afterAll(async () => {
      await stream?.stop();
      await sys?.stop();
    });

    it('restarts every replica of every service one at a time: no failure but retryable 503s, no record lost', async () => {
      stream.start();
      await sleep(2000);
      const restarts: { app: string; replica: number; ms: number }[] = [];
      for (const app of SERVICES) {
        for (const replica of [0, 1]) {
          const t = Date.now();
          await sys.restartService(app, 'SIGTERM', replica);
          restarts.push({ app, replica, ms: Date.now() - t });
          await sleep(500);
        }
      }
      await sleep(2000);
      await stream.stop();

      const samples = stream.samples;
      const served = samples.filter(isExpected);
      const unavailable = samples.filter(isUnavailable);
      const failed = samples.filter((s) => !isExpected(s) && !isUnavailable(s));
      const failures: Record<string, number> = {};
      for (const s of failed)
        failures[`${s.loop} ${s.status} ${s.code ?? s.verdict ?? ''}`] = (failures[`${s.loop} ${s.status} ${s.code ?? s.verdict ?? ''}`] ?? 0) + 1;

      // Every answer that carried a record id is in the store.
      const decisionIds = served.filter((s) => s.kind === 'decision').map((s) => s.id as string);
      const missingDecisions: string[] = [];
      for (const id of decisionIds) {
        // Read back at the org's rate limit: a 429 is waited out, never counted as missing.
        let res = await admin.get(`/v1/mcp-proxy/decisions/${id}`);
        while (res.status === 429) {
          await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
          res = await admin.get(`/v1/mcp-proxy/decisions/${id}`);
        }
        if (res.status !== 200) missingDecisions.push(`${id}: ${res.status}`);
      }
      const history = new Set<string>();
      for (let cursor: string | null = null, pages = 0; pages < 500; pages++) {
        const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await admin.get(
          `/v1/intent/history?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        for (const e of page.body.data as { id: string }[]) history.add(e.id);
        cursor = page.body.next_cursor;
        if (!cursor) break;
      }
      const evaluationIds = served.filter((s) => s.kind === 'evaluation').map((s) => s.id as string);
      const missingEvaluations = evaluationIds.filter((id) => !history.has(id));

      const report = {
        restarts,
        requests: samples.length,
        served: served.length,
        unavailable_503: unavailable.length,
        failed: failed.length,
        failures,
        decisions_answered: decisionIds.length,
        decisions_missing: missingDecisions.length,
        evaluations_answered: evaluationIds.length,
        evaluations_missing: missingEvaluations.length,
      };
      const dir = join(process.env.TEST_OUTPUT_DIR ?? join(REPO_ROOT, 'tmp/test-output'));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'rolling-restart.json'), `${JSON.stringify(report, null, 2)}\n`);
      console.log(`rolling restart: ${JSON.stringify({ ...report, restarts: restarts.length })}`);

      expect(failed.slice(0, 5)).toEqual([]);
      expect(missingDecisions).toEqual([]);
      expect(missingEvaluations).toEqual([]);
      expect(served.length).toBeGreaterThan(100);
      for (const loop of stream.names) expect({ loop, served: served.some((s) => s.loop === loop) }).toEqual({ loop, served: true });
      for (const p of sys.processes) expect({ process: p.name, exitCode: p.child.exitCode }).toEqual({ process: p.name, exitCode: null });
    }, 600_000);
  });
}
