import { randomBytes } from 'node:crypto';
import { client, type Client } from '../e2e/http-client';
import { crmCard, dispenseMandate, createPublishedIntention, installCard } from '../e2e/mandate-fixtures';
import { mintKey, otherOrgClient } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

const tally = (values: readonly (string | null)[]) =>
  values.reduce<Record<string, number>>((acc, v) => (v === null ? acc : { ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
const sum = (line: number[]) => line.reduce((a, b) => a + b, 0);

/**
 * `GET /v1/stats` (DESIGN 6.14, the console overview) over HTTP, the same in every mode: after
 * evaluations and mandate decisions of a fresh org, its counts are exactly what was answered —
 * by outcome and kind, per bucket and in total, the approval backlog, the refused tools, the
 * intentions and cards used — whatever the window; another org sees zero; a bad window is a 400.
 * In distributed mode the gateway composes the evaluator's, the decision proxy's and approvals'
 * parts over their internal routes.
 */
export function describeStats(mode: string, start: () => Promise<TestSystem>) {
  describe(`stats (${mode})`, () => {
    let sys: TestSystem;
    let admin: Client;
    let writer: Client;
    let reader: Client;
    const suffix = randomBytes(3).toString('hex');

    const evaluations: { outcome: string; intent_label: string | null; tool: string; approval: string | null }[] = [];
    const decisions: string[] = [];
    const cardId = `stats-card-${suffix}`;

    beforeAll(async () => {
      sys = await start();
      admin = await otherOrgClient(sys, 'stats');
      writer = client(sys.url, await mintKey(admin, 'stats-writer', 'policy_write'));
      reader = client(sys.url, await mintKey(admin, 'stats-reader', 'read_only'));
      await createPublishedIntention(writer, {
        label: `stats.lookup_${suffix}`,
        intent_class: 'lookup',
        display_name: 'Look up a customer',
        description: 'look up a customer record by id in the crm',
        tools: ['crm.get_customer'],
      });
      await createPublishedIntention(writer, {
        label: `stats.refund_${suffix}`,
        intent_class: 'write',
        display_name: 'Refund an order',
        description: 'refund a paid order to the customer',
        approval_required: true,
        tools: ['shop.refund_order'],
      });
      const evaluate = async (tool: string, args: Record<string, unknown>) => {
        const res = await reader.post('/v1/intent/evaluate', { tool_call: { name: tool, arguments: args } });
        expect(res.status).toBe(200);
        evaluations.push({ outcome: res.body.outcome, intent_label: res.body.intent_label ?? null, tool, approval: res.body.approval_request_id ?? null });
      };
      for (let i = 0; i < 4; i++) await evaluate('crm.get_customer', { id: i });
      for (let i = 0; i < 2; i++) await evaluate('shop.refund_order', { order: i });
      for (let i = 0; i < 3; i++) await evaluate('weather.get_forecast', { city: `c${i}` });

      await installCard(
        writer,
        crmCard(cardId, 'stats card', [
          { id: 'no-export', when: 'action.operation == "crm.contacts.export"', decision: { kind: 'deny', reason: 'bulk_export' } },
        ]),
      );
      const mandate = await dispenseMandate(writer, { intentId: cardId, actor: 'agent:stats' });
      const call = async (operation: string) => {
        const res = await reader.post(
          '/v1/mcp-proxy/call',
          {
            action: { surface: 'sdk', operation, arguments: { id: 1 }, target_resource: 'crm://contacts/1' },
            context: { actor: 'agent:stats' },
            audience: 'crm-api',
          },
          { 'x-service-mandate': mandate.credential },
        );
        if (!res.body?.decision?.kind) throw new Error(`mcp-proxy call answered ${res.status}: ${res.text}`);
        decisions.push(res.body.decision.kind);
      };
      await call('crm.contacts.read');
      await call('crm.contacts.read');
      await call('crm.contacts.export');
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it('counts exactly what was answered, per bucket and in total, for any key of the org', async () => {
      const res = await reader.get('/v1/stats?window=1h');
      expect(res.status).toBe(200);
      const stats = res.body;
      expect(stats.window).toBe('1h');
      expect(stats.bucket_seconds).toBe(60);
      expect(stats.buckets).toHaveLength(60);

      const byOutcome = tally(evaluations.map((e) => e.outcome));
      // The cast did what it was built for: allowed, held for a human and refused calls.
      expect(Object.keys(byOutcome).sort()).toEqual(['allowed', 'denied', 'pending_approval']);
      expect(stats.evaluations.total).toBe(evaluations.length);
      expect(stats.evaluations.by_outcome).toEqual(byOutcome);
      for (const [outcome, line] of Object.entries(stats.evaluations.series as Record<string, number[]>)) {
        expect(line).toHaveLength(60);
        expect(sum(line)).toBe(byOutcome[outcome]);
      }

      expect(stats.decisions.total).toBe(3);
      expect(stats.decisions.by_kind).toEqual(tally(decisions));
      expect(stats.decisions.by_kind).toEqual({ allow: 2, deny: 1 });
      expect(sum(stats.decisions.series.allow)).toBe(2);

      const approvals = new Set(evaluations.map((e) => e.approval).filter((a) => a !== null));
      expect(stats.approvals.pending).toBe(approvals.size);
      expect(stats.approvals.oldest_pending_age_seconds).toBeGreaterThanOrEqual(0);

      const human = byOutcome.pending_approval ?? 0;
      expect(stats.auto_decided).toEqual({ share: (evaluations.length - human) / evaluations.length, automatic: evaluations.length - human, human });

      const refused = tally([...evaluations.filter((e) => e.outcome === 'denied').map((e) => e.tool), 'crm.contacts.export']);
      expect(Object.fromEntries(stats.top_refused_tools.map((t: { tool: string; count: number }) => [t.tool, t.count]))).toEqual(refused);
      expect(Object.fromEntries(stats.intentions.map((t: { intent_label: string; count: number }) => [t.intent_label, t.count]))).toEqual(
        tally(evaluations.map((e) => e.intent_label)),
      );
      expect(stats.cards).toEqual([{ card_id: cardId, count: 3 }]);
    });

    it('gives the same totals over 24h and 7d, in wider buckets', async () => {
      const hour = (await reader.get('/v1/stats?window=1h')).body;
      for (const [window, buckets, seconds] of [
        ['24h', 96, 900],
        ['7d', 168, 3600],
      ] as const) {
        const res = await writer.get(`/v1/stats?window=${window}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ window, bucket_seconds: seconds });
        expect(res.body.buckets).toHaveLength(buckets);
        expect(res.body.evaluations.by_outcome).toEqual(hour.evaluations.by_outcome);
        expect(res.body.decisions.by_kind).toEqual(hour.decisions.by_kind);
        expect(res.body.top_refused_tools).toEqual(hour.top_refused_tools);
        expect(res.body.cards).toEqual(hour.cards);
      }
    });

    /** A window's charts as [bucket, count] pairs per key (nonzero only): comparable across a bucket boundary. */
    const charts = (body: { buckets: string[]; evaluations: { series: Record<string, number[]> }; decisions: { series: Record<string, number[]> } }) => {
      const pairs = (series: Record<string, number[]>) =>
        Object.fromEntries(Object.entries(series).map(([key, line]) => [key, line.flatMap((n, i) => (n > 0 ? [[body.buckets[i], n]] : []))]));
      return { evaluations: pairs(body.evaluations.series), decisions: pairs(body.decisions.series) };
    };

    it.each([
      ['a stop (SIGTERM)', 'SIGTERM'],
      ['a crash (SIGKILL)', 'SIGKILL'],
    ] as const)('the week reads the same after %s of the counting services, whose upkeep rolls up at start', async (_how, signal) => {
      const before = (await reader.get('/v1/stats?window=7d')).body;
      expect(before.evaluations.total).toBe(evaluations.length);
      for (const app of sys.mode === 'embedded' ? ['embedded'] : ['intent-evaluator', 'decision-proxy']) await sys.restartService(app, signal);
      // Answered again once the restarted services serve their parts.
      let after = await reader.get('/v1/stats?window=7d');
      for (const deadline = Date.now() + 30_000; after.status !== 200 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
        after = await reader.get('/v1/stats?window=7d');
      }
      expect(after.status).toBe(200);
      expect(after.body.evaluations.by_outcome).toEqual(before.evaluations.by_outcome);
      expect(after.body.decisions.by_kind).toEqual(before.decisions.by_kind);
      expect(after.body.top_refused_tools).toEqual(before.top_refused_tools);
      expect(after.body.intentions).toEqual(before.intentions);
      expect(after.body.cards).toEqual(before.cards);
      expect(charts(after.body)).toEqual(charts(before));
    });

    it('counts only the caller’s org: another org sees zero', async () => {
      const other = await otherOrgClient(sys, 'stats-other');
      const res = await other.get('/v1/stats?window=7d');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        evaluations: { total: 0, by_outcome: {}, series: {} },
        decisions: { total: 0, by_kind: {}, series: {} },
        approvals: { pending: 0, oldest_pending_age_seconds: null },
        auto_decided: { share: null, automatic: 0, human: 0 },
        top_refused_tools: [],
        intentions: [],
        cards: [],
      });
    });

    it('refuses a window it does not know with a 400 naming the field, and a caller without a key with a 401', async () => {
      for (const window of ['2h', '1H', '']) {
        const res = await reader.get(`/v1/stats?window=${window}`);
        if (window === '') {
          expect(res.status).toBe(200);
          continue;
        }
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'invalid_request',
          message: 'window must be one of 1h, 24h, 7d',
          details: [{ path: 'window', message: 'must be one of 1h, 24h, 7d' }],
        });
      }
      expect((await client(sys.url).get('/v1/stats')).status).toBe(401);
    });
  });
}
