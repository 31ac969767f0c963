import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Spans of the HTTP edge, by hand on `@opentelemetry/api` (a no-op until the runtime starts the
 * SDK: see `startTracing` in @igw/runtime). W3C `traceparent` in, W3C `traceparent` out on every
 * internal call, and the trace id on every log line written while a span is active.
 */
let enabled = false;

/** Called once the SDK is started: from then on apps built get server spans. */
export function enableTracing(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

export const tracer = () => trace.getTracer('intent-gateway');

/** Adds the active trace context (W3C traceparent) to headers of an outgoing request. */
export function injectTraceContext(headers: Record<string, string>): void {
  if (enabled) propagation.inject(context.active(), headers);
}

/** `trace_id`/`span_id` of the active span, for pino's mixin (nothing when tracing is off). */
export function activeTraceFields(): Record<string, string> {
  if (!enabled) return {};
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

const SPAN = Symbol('igw.span');
const CONTEXT = Symbol('igw.traceContext');
interface TracedRequest {
  [SPAN]?: Span;
  [CONTEXT]?: Context;
}

/** The request's trace context (its server span), for work done on its behalf outside its hooks. */
export function requestContext(req: FastifyRequest): Context {
  return (req as unknown as TracedRequest)[CONTEXT] ?? context.active();
}

/**
 * One SERVER span per request, child of the caller's `traceparent` if any, named by the route
 * pattern; the handler runs with it active (set again before the handler: the body is read in
 * the socket's own context).
 */
export function installTracingHooks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const route = req.routeOptions.url;
    const span = tracer().startSpan(
      `${req.method} ${route ?? 'unmatched'}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': req.url.split('?')[0], ...(route ? { 'http.route': route } : {}) },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    const traced = req as unknown as TracedRequest;
    traced[SPAN] = span;
    traced[CONTEXT] = ctx;
    context.with(ctx, done);
  });
  fastify.addHook('preHandler', (req, _reply, done) => {
    context.with(requestContext(req), done);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const span = (req as unknown as TracedRequest)[SPAN];
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
