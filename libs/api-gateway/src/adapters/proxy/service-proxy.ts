import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { type Dispatcher } from 'undici';
import { unavailable, type Caller } from '@igw/kernel';
import { INTERNAL_HEADERS, internalCallerHeaders, requestAnyReplica, upstreamPool, type UpstreamPool } from '@igw/http';

const PASS_BACK = ['content-type', 'etag', 'cache-control', 'retry-after', 'location', 'ratelimit', 'ratelimit-policy', 'allow'];
/** Request headers a service may need beyond the body: conditional GETs, and the mandate of an mcp-proxy call. */
const PASS_ON = ['if-none-match', 'x-service-mandate'];

/** MCP Streamable HTTP (DESIGN 6.13): what the agent and the service tell each other beyond the body. */
const STREAM_PASS_ON = ['accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'x-service-mandate'];
const STREAM_PASS_BACK = ['content-type', 'cache-control', 'mcp-session-id', 'mcp-protocol-version', 'retry-after'];

type HeaderBag = Record<string, string | string[] | undefined> | undefined;
/** The string-valued headers of `from` named in `names` (lower case), copied into `into`. */
function copyHeaders(from: HeaderBag, names: readonly string[], into: Record<string, string> = {}): Record<string, string> {
  for (const name of names) {
    const v = from?.[name];
    if (typeof v === 'string') into[name] = v;
  }
  return into;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Distributed mode: forwards an admitted request to the owning service over a keep-alive pool,
 * with the caller in headers the service trusts only with the internal token.
 */
export class ServiceProxy {
  private readonly pool: UpstreamPool;
  /** Streams (an MCP session's SSE) may stay open for long: their own connections, no body deadline. */
  private readonly streams: UpstreamPool;

  constructor(
    readonly baseUrl: string,
    private readonly internalToken: string,
  ) {
    // `baseUrl`: one URL, or the service's replicas comma-separated (balanced; a replica that is
    // down is skipped while it refuses connections).
    this.pool = upstreamPool(baseUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 15_000, bodyTimeout: 15_000 });
    // An MCP POST is answered (headers and all) once its call is done. 45 s: past an agent SDK's
    // usual wait it would be pointless, and a stalled replica becomes a retryable 503 before it.
    this.streams = upstreamPool(baseUrl, { connections: null, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 45_000, bodyTimeout: 0 });
  }

  /**
   * Forwards a streaming exchange (`/mcp/*`): the answer goes to `res` as it comes, unbuffered,
   * and is cut when the agent goes away. Before the service answers, a failure is a 503.
   */
  async stream(
    req: { method: string; url: string; body?: unknown; requestId: string; headers?: Record<string, string | string[] | undefined> },
    caller: Caller,
    res: ServerResponse,
    /** Called once the service answered, before `res` is written (the HTTP framework lets go of it). */
    claim: () => void,
  ): Promise<void> {
    const headers: Record<string, string> = { ...internalCallerHeaders(this.internalToken, caller, req.requestId) };
    copyHeaders(req.headers, STREAM_PASS_ON, headers);
    let body: string | undefined;
    if (req.body !== undefined && req.method === 'POST') {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    // Cut when the agent goes away first (an answer sent in full needs no abort: building the
    // abort's error on every close cost the gateway about 5% of its CPU under MCP load).
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let answer: Dispatcher.ResponseData;
    try {
      answer = await requestAnyReplica(this.streams, { method: req.method as Dispatcher.HttpMethod, path: req.url, headers, body, signal: abort.signal });
    } catch {
      throw unavailable('an internal service is unavailable; retry later');
    }
    claim();
    const passed = copyHeaders(answer.headers, STREAM_PASS_BACK);
    res.writeHead(answer.statusCode, passed);
    // An event stream's headers go at once; a JSON answer's go with its body, in one write.
    if (passed['content-type']?.startsWith('text/event-stream')) res.flushHeaders();
    await pipeline(answer.body, res).catch(() => undefined);
  }

  /** `caller` null: a public route (no key); the service gets the internal token and no caller. */
  async forward(
    req: { method: string; url: string; body?: unknown; requestId: string; headers?: Record<string, string | string[] | undefined> },
    caller: Caller | null,
  ): Promise<ProxiedResponse> {
    const headers: Record<string, string> = caller
      ? { ...internalCallerHeaders(this.internalToken, caller, req.requestId), accept: 'application/json' }
      : { [INTERNAL_HEADERS.token]: this.internalToken, 'x-request-id': req.requestId, accept: 'application/json' };
    copyHeaders(req.headers, PASS_ON, headers);
    let body: string | undefined;
    if (req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD') {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await requestAnyReplica(this.pool, { method: req.method as Dispatcher.HttpMethod, path: req.url, headers, body });
    } catch {
      throw unavailable('an internal service is unavailable; retry later');
    }
    return { status: res.statusCode, headers: copyHeaders(res.headers, PASS_BACK), body: Buffer.from(await res.body.arrayBuffer()) };
  }

  async ping(): Promise<boolean> {
    try {
      const res = await requestAnyReplica(this.pool, { method: 'GET', path: '/readyz' });
      await res.body.dump();
      return res.statusCode === 200;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.streams.destroy()]);
  }
}
