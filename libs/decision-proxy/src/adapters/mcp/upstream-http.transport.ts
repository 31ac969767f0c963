import { createParser } from 'eventsource-parser';
import { request, type Dispatcher } from 'undici';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mediaTypeEssence } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';

/** Largest answer the proxy reads from an upstream (one JSON body, or one SSE stream in all). */
export const MAX_UPSTREAM_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface UpstreamHttpTransportOptions {
  /** The pooled dispatcher every upstream request goes through (checks destinations, deadlines). */
  dispatcher: Dispatcher;
  /** Headers the registration sealed for this upstream (its credentials). */
  headers?: Record<string, string>;
  /** Resume this upstream session instead of opening one (the client then skips initialize). */
  sessionId?: string;
  maxBytes?: number;
}

/**
 * The SDK `Client`'s transport to an upstream MCP server over Streamable HTTP (2025-06-18), on
 * undici's `request` and the process's pooled dispatcher: each message one POST, answered with
 * JSON, an SSE stream (read as it arrives, capped in size) or 202. The SDK's own client transport
 * goes through WHATWG fetch and web streams, which cost the proxy about a millisecond of CPU per
 * call (decision 0020); the protocol stays the SDK's. No standing GET stream is opened: the
 * proxy relays no server-initiated notifications. An upstream that forgot the session answers
 * 404, thrown as the SDK's `StreamableHTTPError` so the session re-opens it.
 */
export class UpstreamHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private session: string | undefined;
  private protocol: string | undefined;
  private readonly aborts = new AbortController();
  private readonly maxBytes: number;
  private readonly tag = randomBytes(6).toString('hex');
  /** Tagged ids of requests sent and not yet answered, to the ids the client chose. */
  private readonly sent = new Map<string, RequestId>();
  /** The HTTP exchange each tagged request rides on. */
  private readonly exchanges = new Map<string, AbortController>();

  constructor(
    private readonly url: URL,
    private readonly options: UpstreamHttpTransportOptions,
  ) {
    this.session = options.sessionId;
    this.maxBytes = options.maxBytes ?? MAX_UPSTREAM_RESPONSE_BYTES;
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  get protocolVersion(): string | undefined {
    return this.protocol;
  }

  setProtocolVersion(version: string): void {
    this.protocol = version;
  }

  /** Nothing to open: each message is its own HTTP exchange. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.aborts.abort();
    this.sent.clear();
    this.exchanges.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const messages = (Array.isArray(message) ? message : [message]).map((m) => this.outgoing(m));
    // This POST's own exchange: cut once its requests are answered, or when the client cancels one.
    const exchange = new AbortController();
    const wireIds = messages.filter(isRequest).map((m) => String(m.id));
    const waiting = new Set(wireIds);
    for (const id of waiting) this.exchanges.set(id, exchange);
    try {
      const res = await request(this.url, {
        method: 'POST',
        dispatcher: this.options.dispatcher,
        headers: { ...this.headers(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(Array.isArray(message) ? messages : messages[0]),
        signal: AbortSignal.any([this.aborts.signal, exchange.signal]),
      });
      const session = header(res.headers['mcp-session-id']);
      if (session) this.session = session;
      if (res.statusCode < 200 || res.statusCode > 299) {
        await res.body.dump().catch(() => undefined);
        // The status only: an upstream's error body is its own business (stack traces, hosts).
        throw new StreamableHTTPError(res.statusCode, `Error POSTing to endpoint: HTTP ${res.statusCode}`);
      }
      if (res.statusCode === 202 || waiting.size === 0) {
        await res.body.dump().catch(() => undefined);
        return;
      }
      const type = mediaTypeEssence(header(res.headers['content-type']));
      if (type === 'text/event-stream') return await this.readEvents(res.body, waiting);
      if (type !== 'application/json') {
        await res.body.dump().catch(() => undefined);
        throw new StreamableHTTPError(-1, `Unexpected content type: ${type ?? 'none'}`);
      }
      const text = await this.text(res.body);
      const data = notJsonRpc(() => JSON.parse(text) as unknown);
      for (const m of Array.isArray(data) ? data : [data]) this.deliver(notJsonRpc(() => JSONRPCMessageSchema.parse(m)));
    } finally {
      // Answered, or never to be: no answer comes on any other stream (none is opened).
      for (const id of wireIds) {
        this.sent.delete(id);
        if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
      }
    }
  }

  /**
   * The id a request goes out with: the session's upstream may be shared by this replica's client
   * and another's (each numbers its requests from 0), so ids carry this transport's own tag and
   * every answer reaches the call that asked. A cancel names the tagged id, and cuts its exchange.
   */
  private outgoing(m: JSONRPCMessage): JSONRPCMessage {
    if (isRequest(m)) {
      const wire = `${this.tag}.${String(m.id)}`;
      this.sent.set(wire, m.id);
      return { ...m, id: wire };
    }
    if ('method' in m && m.method === 'notifications/cancelled' && m.params && 'requestId' in m.params) {
      const wire = `${this.tag}.${String(m.params['requestId'])}`;
      this.exchanges.get(wire)?.abort();
      this.sent.delete(wire);
      return { ...m, params: { ...m.params, requestId: wire } };
    }
    return m;
  }

  /** An answer goes to the client under the id it asked with; anything else as it came. */
  private deliver(m: JSONRPCMessage): string | undefined {
    const wire = 'id' in m && !('method' in m) && typeof m.id === 'string' ? m.id : undefined;
    const id = wire === undefined ? undefined : this.sent.get(wire);
    if (wire === undefined || id === undefined) {
      this.onmessage?.(m);
      return undefined;
    }
    this.sent.delete(wire);
    this.onmessage?.({ ...m, id } as JSONRPCMessage);
    return wire;
  }

  /** DELETE of the upstream session (the agent ended its own); 405: the upstream keeps none to end. */
  async terminateSession(): Promise<void> {
    if (!this.session) return;
    const res = await request(this.url, { method: 'DELETE', dispatcher: this.options.dispatcher, headers: this.headers() });
    await res.body.dump().catch(() => undefined);
    if (res.statusCode !== 405 && (res.statusCode < 200 || res.statusCode > 299))
      throw new StreamableHTTPError(res.statusCode, `Failed to terminate session: HTTP ${res.statusCode}`);
    this.session = undefined;
  }

  private headers(): Record<string, string> {
    return {
      ...this.options.headers,
      ...(this.session ? { 'mcp-session-id': this.session } : {}),
      ...(this.protocol ? { 'mcp-protocol-version': this.protocol } : {}),
    };
  }

  private async text(body: AsyncIterable<Buffer>): Promise<string> {
    const chunks: Buffer[] = [];
    let seen = 0;
    for await (const chunk of body) {
      seen += chunk.byteLength;
      if (seen > this.maxBytes) throw new Error(`the upstream answered more than ${this.maxBytes} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /**
   * Each `message` event is delivered as it arrives (progress before the answer); the stream is
   * let go once every request of the POST is answered. One that ends before that fails at once.
   */
  private async readEvents(body: AsyncIterable<Buffer>, waiting: Set<string>): Promise<void> {
    let failure: Error | undefined;
    const parser = createParser({
      onEvent: (event) => {
        if ((event.event ?? 'message') !== 'message' || event.data === '') return;
        try {
          const answered = this.deliver(notJsonRpc(() => JSONRPCMessageSchema.parse(JSON.parse(event.data))));
          if (answered !== undefined) waiting.delete(answered);
        } catch (err) {
          failure ??= err as Error;
        }
      },
    });
    const decoder = new TextDecoder();
    let seen = 0;
    for await (const chunk of body) {
      seen += chunk.byteLength;
      if (seen > this.maxBytes) throw new Error(`the upstream answered more than ${this.maxBytes} bytes`);
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
      // Leaving the loop destroys the body: the upstream's keep-alives would hold it open.
      if (waiting.size === 0) return;
    }
    throw new Error('the upstream ended its answer stream without answering');
  }
}

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

/** The upstream's text is not shown (a parser's message quotes it): one fixed failure instead. */
function notJsonRpc<T>(read: () => T): T {
  try {
    return read();
  } catch {
    throw new Error('the upstream sent an answer that is not JSON-RPC');
  }
}
