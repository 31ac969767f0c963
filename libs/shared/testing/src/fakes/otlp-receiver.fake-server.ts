import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeFakeHttpServer, readFakeBody, startFakeHttpServer } from './fake-http-server';

/** One span as an OTLP/HTTP JSON export carries it, with the `service.name` of its resource. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributes = (list: OtlpAttribute[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

/**
 * An OpenTelemetry collector for tests: a real `node:http` server taking OTLP/HTTP JSON trace
 * exports (`POST /v1/traces`, what `@opentelemetry/exporter-trace-otlp-http` sends) and keeping
 * every span. Anything else (protobuf, another path) is refused with 415/404, so a change of
 * exporter shows up as a failing test rather than as silence.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly refused: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static start(): Promise<OtlpReceiver> {
    return startFakeHttpServer(
      (server, port) => new OtlpReceiver(server, port),
      (fake, req, res) => fake.handle(req, res),
    );
  }

  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to (the exporter adds `/v1/traces`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Polls until the spans satisfy `pred`; fails naming what did arrive. */
  async waitFor(pred: (spans: ReceivedSpan[]) => boolean, timeoutMs = 20_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.spans)) {
      if (Date.now() > deadline) {
        const seen = this.spans.map((s) => `${s.service} ${s.kind} ${s.name} ${s.traceId}/${s.spanId}<-${s.parentSpanId}`);
        throw new Error(`spans never matched; received ${seen.length}:\n${seen.join('\n')}\nrefused: ${this.refused.join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.spans;
  }

  close(): Promise<void> {
    return closeFakeHttpServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readFakeBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      this.refused.push(`${req.method} ${req.url}`);
      return void res.writeHead(404).end();
    }
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      this.refused.push(`content-type ${req.headers['content-type']}`);
      return void res.writeHead(415).end();
    }
    const parsed = JSON.parse(body) as {
      resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
    };
    for (const rs of parsed.resourceSpans ?? []) {
      const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            traceId: String(s['traceId']),
            spanId: String(s['spanId']),
            parentSpanId: String(s['parentSpanId'] ?? ''),
            name: String(s['name']),
            kind: Number(s['kind']),
            attributes: attributes(s['attributes'] as OtlpAttribute[] | undefined),
          });
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }
}
