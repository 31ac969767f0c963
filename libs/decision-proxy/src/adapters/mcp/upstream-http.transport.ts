import { createParser } from 'eventsource-parser';
import { request, type Dispatcher } from 'undici';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mediaTypeEssence } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

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
    this.onclose?.();
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const res = await request(this.url, {
      method: 'POST',
      dispatcher: this.options.dispatcher,
      headers: { ...this.headers(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
      signal: this.aborts.signal,
    });
    const session = header(res.headers['mcp-session-id']);
    if (session) this.session = session;
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump().catch(() => undefined);
      // The status only: an upstream's error body is its own business (stack traces, hosts).
      throw new StreamableHTTPError(res.statusCode, `Error POSTing to endpoint: HTTP ${res.statusCode}`);
    }
    const type = mediaTypeEssence(header(res.headers['content-type']));
    if (res.statusCode === 202 || !(Array.isArray(message) ? message : [message]).some((m) => 'method' in m && 'id' in m)) {
      await res.body.dump().catch(() => undefined);
      return;
    }
    if (type === 'text/event-stream') return this.readEvents(res.body);
    if (type !== 'application/json') {
      await res.body.dump().catch(() => undefined);
      throw new StreamableHTTPError(-1, `Unexpected content type: ${type ?? 'none'}`);
    }
    const data: unknown = JSON.parse(await this.text(res.body));
    for (const m of Array.isArray(data) ? data : [data]) this.onmessage?.(JSONRPCMessageSchema.parse(m));
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

  /** Each `message` event is delivered as it arrives (progress before the answer). */
  private async readEvents(body: AsyncIterable<Buffer>): Promise<void> {
    let failure: Error | undefined;
    const parser = createParser({
      onEvent: (event) => {
        if ((event.event ?? 'message') !== 'message' || event.data === '') return;
        try {
          this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(event.data)));
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
    }
  }
}

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
