import { randomBytes } from 'node:crypto';
import { DECISION_KINDS } from '@igw/kernel';
import { client, type Client } from '../e2e/http-client';
import { mintKey } from '../e2e/org-keys';
import { parsePrometheusText, sumOf, type Exposition } from '../e2e/prometheus-text';
import type { TestSystem } from '../e2e/system';

/** The families every app exposes (the process metrics are prom-client's defaults, prefixed). */
const EVERY_APP = ['igw_http_requests_total', 'igw_http_request_duration_seconds', 'igw_process_cpu_seconds_total', 'igw_nodejs_heap_size_used_bytes'];

/**
 * `/metrics` (DESIGN 6.14) over HTTP, the same in every mode: served without a key beside the
 * probes by every process, in the text exposition format; the families move with the traffic
 * that should move them. In distributed mode each process counts what it does (decisions in the
 * decision proxy, evaluations in the evaluator, rate limits at the gateway), so the suite adds up
 * every process's scrape.
 */
export function describeMetrics(mode: string, start: () => Promise<TestSystem>) {
  describe(`metrics (${mode})`, () => {
    let sys: TestSystem;
    let writer: Client;
    let agent: Client;

    const scrape = async (url: string): Promise<{ expo: Exposition; contentType: string | null; status: number }> => {
      const res = await fetch(`${url}/metrics`);
      return { expo: parsePrometheusText(await res.text()), contentType: res.headers.get('content-type'), status: res.status };
    };
    /** Every process's scrape, samples concatenated (so sums add up across processes). */
    const scrapeAll = async (): Promise<Exposition> => {
      const all = await Promise.all(sys.processes.map((p) => scrape(p.url)));
      const types = new Map<string, string>();
      for (const { expo } of all) for (const [k, v] of expo.types) types.set(k, v);
      return { types, samples: all.flatMap(({ expo }) => expo.samples) };
    };

    beforeAll(async () => {
      sys = await start();
      const admin = client(sys.url, sys.adminKey);
      writer = client(sys.url, await mintKey(admin, 'metrics-writer', 'policy_write'));
      agent = client(sys.url, await mintKey(admin, 'metrics-agent', 'read_only'));
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it('every process serves /metrics without a key, in the text format, with the igw_ families', async () => {
      expect(sys.processes.length).toBe(mode === 'embedded' ? 1 : 7);
      for (const p of sys.processes) {
        const { expo, contentType, status } = await scrape(p.url);
        expect({ app: p.name, status }).toEqual({ app: p.name, status: 200 });
        expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
        for (const family of EVERY_APP) expect({ app: p.name, family, present: expo.types.has(family) }).toEqual({ app: p.name, family, present: true });
        expect(expo.types.get('igw_http_request_duration_seconds')).toBe('histogram');
        // Each process reads the backlog of its own schemas' outboxes at scrape time.
        expect(expo.samples.some((s) => s.name === 'igw_outbox_backlog_events' && s.value >= 0)).toBe(true);
        expect(expo.samples.some((s) => s.name === 'igw_outbox_oldest_event_age_seconds' && s.value >= 0)).toBe(true);
      }
      const all = await scrapeAll();
      // The decision proxy declares all twelve kinds, counted from zero.
      for (const kind of DECISION_KINDS) expect(all.samples.some((s) => s.name === 'igw_decisions_total' && s.labels['kind'] === kind)).toBe(true);
      const schemas = new Set(all.samples.filter((s) => s.name === 'igw_outbox_backlog_events').map((s) => s.labels['schema']));
      expect(schemas.size).toBe(7);
    });

    it('requests, evaluations, decisions, rate limits and read-model refreshes move their families', async () => {
      const before = await scrapeAll();
      const label = `metrics.lookup.${randomBytes(3).toString('hex')}`;

      // An intention published: the evaluator's read model takes it.
      const created = await writer.post('/v1/intentions', {
        label,
        intent_class: 'lookup',
        display_name: 'Look up a customer',
        description: 'look up a customer record by id in the crm',
      });
      expect(created.status).toBe(201);
      const intentionId = created.body.id as string;
      expect((await writer.post(`/v1/intentions/${intentionId}/publish`)).status).toBe(200);
      // A call evaluated against it.
      const evaluated = await agent.post('/v1/intent/evaluate', { tool_call: { name: 'crm_lookup_customer', arguments: { id: 7 } } });
      expect(evaluated.status).toBe(200);
      const layer = evaluated.body.classification_evidence.classification_method as string;

      // Mandate decisions: an allow and a deny.
      const cardId = `metrics-card-${randomBytes(3).toString('hex')}`;
      const card = {
        id: cardId,
        name: 'metrics card',
        allowed_scope: { operations: ['crm.**'], resources: ['crm://**'] },
        audiences: ['crm-api'],
        max_ttl_seconds: 3600,
        rules: [{ id: 'deny-export', when: 'action.operation == "crm.contacts.export"', decision: { kind: 'deny', reason: 'bulk_export', message: 'no' } }],
      };
      expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
      const dispensed = await writer.post('/v1/mandate/dispense', {
        actor: 'agent:metrics',
        intent_id: cardId,
        requested_scope: { operations: ['crm.**'], resources: ['crm://**'] },
        audience: 'crm-api',
        ttl_seconds: 600,
      });
      expect(dispensed.status).toBe(200);
      const call = (operation: string) =>
        agent.post(
          '/v1/mcp-proxy/call',
          {
            action: { surface: 'sdk', operation, arguments: { id: 1 }, target_resource: 'crm://contacts/1' },
            context: { actor: 'agent:metrics' },
            audience: 'crm-api',
          },
          { 'x-service-mandate': dispensed.body.credential },
        );
      expect((await call('crm.contacts.read')).body.decision.kind).toBe('allow');
      expect((await call('crm.contacts.export')).body.decision.kind).toBe('deny');

      // A key of an org limited to one request per second, spent.
      const org = await client(sys.url, sys.platformKey).post('/v1/orgs', {
        name: `metrics-${randomBytes(3).toString('hex')}`,
        rate_limit: { requests_per_second: 1, burst: 1 },
      });
      expect(org.status).toBe(201);
      const limited = client(sys.url, org.body.api_key.key);
      const statuses = [
        (await limited.get('/v1/intentions')).status,
        (await limited.get('/v1/intentions')).status,
        (await limited.get('/v1/intentions')).status,
      ];
      expect(statuses).toContain(429);

      const after = await scrapeAll();
      const moved = (name: string, match: Record<string, string> = {}) => sumOf(after, name, match) - sumOf(before, name, match);

      // Requests by route pattern: the publish route is counted under `:id`, never the raw id.
      const publish = { method: 'POST', route: '/v1/intentions/:id/publish', status: '200' };
      expect(moved('igw_http_requests_total', publish)).toBe(1);
      expect(moved('igw_http_request_duration_seconds_count', publish)).toBe(1);
      expect(moved('igw_http_request_duration_seconds_bucket', { ...publish, le: '+Inf' })).toBe(1);
      expect(after.samples.some((s) => s.labels['route']?.includes(intentionId))).toBe(false);
      expect(moved('igw_http_requests_total', { method: 'GET', route: '/v1/intentions', status: '429' })).toBe(statuses.filter((s) => s === 429).length);

      expect(moved('igw_intent_evaluations_total', { outcome: evaluated.body.outcome, layer })).toBe(1);
      expect(moved('igw_decisions_total', { kind: 'allow' })).toBe(1);
      expect(moved('igw_decisions_total', { kind: 'deny' })).toBe(1);
      expect(moved('igw_decisions_total')).toBe(2);
      expect(moved('igw_rate_limit_rejections_total')).toBe(statuses.filter((s) => s === 429).length);
      // The publish and the card reached the evaluator's and the decision proxy's read models.
      expect(moved('igw_read_model_refreshes_total', { read_model: 'active intentions' })).toBeGreaterThanOrEqual(1);
      expect(moved('igw_read_model_refreshes_total', { read_model: 'intent cards' })).toBeGreaterThanOrEqual(1);
    });

    if (mode === 'distributed') {
      // How exact the number is, is the Kafka bus's integration spec (4 waiting, then 0): the broker
      // here is shared with other runs, whose history a new read-model group reads from the beginning.
      it("reports each process's Kafka consumer groups, with their lag read from the brokers", async () => {
        const lags = (await scrapeAll()).samples.filter((s) => s.name === 'igw_kafka_consumer_lag');
        const groups = lags.map((s) => s.labels['group']);
        expect(groups).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^intent-evaluator\.read-model\./),
            expect.stringMatching(/^decision-proxy\.read-model\./),
            expect.stringMatching(/^webhook-dispatcher\./),
          ]),
        );
        for (const s of lags) expect(Number.isInteger(s.value) && s.value >= 0).toBe(true);
      });
    }
  });
}
