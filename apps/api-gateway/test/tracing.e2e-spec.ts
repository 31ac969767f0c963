import { randomBytes } from 'node:crypto';
import { client, mintKey, OtlpReceiver, runAppToExit, SPAN_KIND, startDistributedSystem, type ReceivedSpan, type TestSystem } from '@igw/testing';

/**
 * OpenTelemetry traces in distributed mode (DESIGN 6.14), exported over OTLP/HTTP to a real
 * receiver: one trace runs from the caller's traceparent through the gateway, the owning service,
 * the Kafka message and its consumers in other processes; every log line of the request carries
 * the trace id. A malformed endpoint stops a process at start with one line.
 */
describe('tracing (distributed)', () => {
  let receiver: OtlpReceiver;
  let sys: TestSystem;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    sys = await startDistributedSystem({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' } });
  });

  afterAll(async () => {
    await sys?.stop();
    await receiver?.close();
  });

  it('one trace: caller → api-gateway → policy-registry → Kafka → consumers in other services', async () => {
    const writerKey = await mintKey(client(sys.url, sys.adminKey), 'trace-writer', 'policy_write');
    const writer = client(sys.url, writerKey);
    const created = await writer.post('/v1/intentions', {
      label: `trace.lookup.${randomBytes(3).toString('hex')}`,
      intent_class: 'lookup',
      display_name: 'Look up',
      description: 'look up a record',
    });
    expect(created.status).toBe(201);

    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await fetch(`${sys.url}/v1/intentions/${created.body.id}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writerKey}`, traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(res.status).toBe(200);

    const inTrace = (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
    const find = (spans: ReceivedSpan[], service: string, kind: number, parent?: string) =>
      inTrace(spans).find((s) => s.service === service && s.kind === kind && (parent === undefined || s.parentSpanId === parent));
    const spans = await receiver.waitFor((all) => {
      const edge = find(all, 'api-gateway', SPAN_KIND.server, callerSpan);
      const owner = edge && find(all, 'policy-registry', SPAN_KIND.server, edge.spanId);
      const producer = owner && inTrace(all).find((s) => s.service === 'policy-registry' && s.kind === SPAN_KIND.producer);
      return !!producer && inTrace(all).some((s) => s.kind === SPAN_KIND.consumer && s.parentSpanId === producer.spanId && s.service !== 'policy-registry');
    });

    const edge = find(spans, 'api-gateway', SPAN_KIND.server, callerSpan)!;
    expect(edge.name).toBe('POST /v1/intentions/*');
    const owner = find(spans, 'policy-registry', SPAN_KIND.server, edge.spanId)!;
    // The route pattern, never the raw id.
    expect(owner.name).toBe('POST /v1/intentions/:id/publish');
    expect(owner.attributes['http.response.status_code']).toBe(200);
    const producer = inTrace(spans).find((s) => s.service === 'policy-registry' && s.kind === SPAN_KIND.producer)!;
    expect(producer.name).toBe('policy.intention.published.v1 publish');
    const consumers = inTrace(spans).filter((s) => s.kind === SPAN_KIND.consumer && s.parentSpanId === producer.spanId);
    expect(consumers.map((s) => s.service)).toContain('intent-evaluator');
    expect(consumers.every((s) => s.name === 'policy.intention.published.v1 process')).toBe(true);

    // Every log line of the request carries its trace id, in both processes.
    const lines = sys
      .output()
      .split('\n')
      .filter((l) => l.includes(traceId));
    const services = new Set(lines.map((l) => (JSON.parse(l) as { service: string }).service));
    expect([...services].sort()).toEqual(expect.arrayContaining(['api-gateway', 'policy-registry']));
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const access = lines.map((l) => JSON.parse(l) as { msg: string; service: string; url?: string }).filter((l) => l.msg === 'request');
    expect(access.map((l) => l.service).sort()).toEqual(['api-gateway', 'policy-registry']);
  });

  it('a request without traceparent starts a trace at the gateway that the service continues', async () => {
    const before = receiver.spans.length;
    const res = await client(sys.url, sys.adminKey).get('/v1/intentions');
    expect(res.status).toBe(200);
    const spans = await receiver.waitFor((all) => {
      const edge = all.slice(before).find((s) => s.service === 'api-gateway' && s.name === 'GET /v1/intentions' && s.parentSpanId === '');
      return !!edge && all.some((s) => s.service === 'policy-registry' && s.parentSpanId === edge.spanId);
    });
    const edge = spans.slice(before).find((s) => s.service === 'api-gateway' && s.name === 'GET /v1/intentions' && s.parentSpanId === '')!;
    const owner = spans.find((s) => s.service === 'policy-registry' && s.parentSpanId === edge.spanId)!;
    expect(owner).toMatchObject({ traceId: edge.traceId, name: 'GET /v1/intentions', kind: SPAN_KIND.server });
  });

  it.each(['localhost:4318', 'not a url', 'ftp://collector:4318'])('a malformed OTEL_EXPORTER_OTLP_ENDPOINT (%s) is one line and exit 78', async (endpoint) => {
    const { code, output } = await runAppToExit('policy-registry', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    expect(code).toBe(78);
    expect(output.trim().split('\n')).toEqual([expect.stringContaining('policy-registry: OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL')]);
  });
});
