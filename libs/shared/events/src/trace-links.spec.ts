import { context, SpanKind, trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InProcessEventBus } from './adapters/in-process/in-process-event-bus';
import { envelope } from './envelope';

describe('trace links (outbox → bus → handler)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new node.NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => provider.register());
  afterAll(() => provider.shutdown());
  beforeEach(() => exporter.reset());

  it('an event made inside a span is handled in that trace, though published outside it', async () => {
    const bus = new InProcessEventBus();
    const seen: { traceId?: string }[] = [];
    await bus.subscribe({
      group: 'readers',
      topics: ['policy.intention.published.v1'],
      handler: async () => void seen.push({ traceId: trace.getActiveSpan()?.spanContext().traceId }),
    });
    await bus.start();

    const request = trace.getTracer('test').startSpan('POST /v1/intentions/:id/publish', { kind: SpanKind.SERVER });
    const event = context.with(trace.setSpan(context.active(), request), () =>
      envelope({ name: 'policy.intention.published.v1', version: 1 }, 'org_1', {}, new Date()),
    );
    request.end();
    // The relay publishes later, from no request at all.
    expect(trace.getActiveSpan()).toBeUndefined();
    await bus.publish([event]);

    const traceId = request.spanContext().traceId;
    expect(seen).toEqual([{ traceId }]);
    const spans = exporter.getFinishedSpans();
    const producer = spans.find((s) => s.kind === SpanKind.PRODUCER)!;
    const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER)!;
    expect(producer.spanContext().traceId).toBe(traceId);
    expect(producer.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(consumer.attributes['messaging.consumer.group.name']).toBe('readers');
  });

  it('an event made outside any span starts no trace', async () => {
    const bus = new InProcessEventBus();
    let active: unknown = 'unset';
    await bus.subscribe({ group: 'g', topics: ['t.v1'], handler: async () => void (active = trace.getActiveSpan()) });
    await bus.publish([envelope({ name: 't.v1', version: 1 }, 'org_1', {}, new Date())]);
    expect(active).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
