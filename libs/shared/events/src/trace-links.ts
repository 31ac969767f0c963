import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanContext,
  type TextMapGetter,
} from '@opentelemetry/api';
import { BoundedMap } from '@igw/kernel';

/**
 * How a trace crosses the outbox and the bus. An event is created inside the request that causes
 * it but published later by the outbox relay, so the span active at creation is remembered by
 * event id (in memory, bounded: a link lost to a restart or another replica's relay only starts
 * a new trace) and becomes the parent of the PRODUCER span whose context rides in the Kafka
 * message headers (W3C traceparent); the consumer continues it with a CONSUMER span. With
 * tracing off no span is ever active, so nothing is remembered and nothing is added.
 */
const links = new BoundedMap<string, SpanContext>(10_000);
const tracer = () => trace.getTracer('intent-gateway');

/** Called where every envelope is made: remembers the active span as the event's trace parent. */
export function rememberTraceParent(eventId: string): void {
  const span = trace.getActiveSpan();
  if (span) links.set(eventId, span.spanContext());
}

/** The context an event is published in: the span it was created under, else the active one, else none. */
function publishParent(eventId: string): Context | undefined {
  const linked = links.get(eventId);
  if (linked) return trace.setSpanContext(ROOT_CONTEXT, linked);
  return trace.getActiveSpan() ? context.active() : undefined;
}

/** A PRODUCER span for one event, its context written into `headers`; undefined when there is no trace to continue. */
export function startPublishSpan(event: { id: string; type: string }, headers: Record<string, string>, system = 'kafka'): Span | undefined {
  const parent = publishParent(event.id);
  if (!parent) return undefined;
  const span = tracer().startSpan(
    `${event.type} publish`,
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': system, 'messaging.destination.name': event.type, 'messaging.message.id': event.id } },
    parent,
  );
  propagation.inject(trace.setSpan(parent, span), headers);
  return span;
}

export function endSpans(spans: readonly (Span | undefined)[], error?: unknown): void {
  for (const span of spans) {
    if (!span) continue;
    if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error) });
    span.end();
  }
}

type Headers = Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined;
const kafkaHeaders: TextMapGetter<Headers> = {
  keys: (carrier) => Object.keys(carrier ?? {}),
  get: (carrier, key) => {
    const value = carrier?.[key];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined ? undefined : first.toString();
  },
};

/**
 * Runs `handle` for a consumed message: inside a CONSUMER span continuing the trace its headers
 * carry, or as is when they carry none.
 */
export async function withConsumeSpan<T>(topic: string, group: string, headers: Headers, handle: () => Promise<T>, system = 'kafka'): Promise<T> {
  if (!headers?.['traceparent']) return handle();
  const parent = propagation.extract(ROOT_CONTEXT, headers, kafkaHeaders);
  if (!trace.getSpanContext(parent)) return handle();
  const span = tracer().startSpan(
    `${topic} process`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': system, 'messaging.destination.name': topic, 'messaging.consumer.group.name': group } },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), handle);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message ?? err) });
    throw err;
  } finally {
    span.end();
  }
}
