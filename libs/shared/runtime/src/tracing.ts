import { ConfigError } from '@igw/config';
import { enableTracing } from '@igw/http';

/**
 * OpenTelemetry traces, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: then the SDK is loaded
 * and started (OTLP over HTTP, JSON; batched, `OTEL_BSP_*` apply) and the HTTP edge, internal
 * calls and the Kafka bus make and propagate spans. When it is not set nothing is loaded or
 * started. Only traces: metrics are Prometheus (`/metrics`), logs are pino on stdout (with the
 * trace id). Resolves to the shutdown that flushes what is buffered.
 */
export async function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<(() => Promise<void>) | undefined> {
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  if (!endpoint) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, e.g. http://otel-collector:4318 (got "${endpoint}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, e.g. http://otel-collector:4318 (got "${endpoint}")`);
  }
  const [{ NodeSDK }, { OTLPTraceExporter }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/exporter-trace-otlp-http')]);
  const sdk = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] || serviceName,
    traceExporter: new OTLPTraceExporter(),
    // Spans are made by hand at the edges we own (HTTP, internal clients, the bus): no monkey-patching.
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  enableTracing();
  return () => sdk.shutdown().catch(() => undefined);
}
