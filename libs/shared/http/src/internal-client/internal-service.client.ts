import { requestAnyReplica, upstreamPool, type UpstreamPool } from './upstream-pool';
import { DependencyUnavailableError, type Caller } from '@igw/kernel';
import { internalCallerHeaders } from './internal-caller-headers';

export type InternalMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface InternalServiceClientOptions {
  /** Budget for one whole request (connect, wait for a connection, headers, body). Default 5000. */
  timeoutMs?: number;
  /** Keep-alive connections in the pool. Default 32. */
  connections?: number;
  /** Names the dependency in DependencyUnavailableError, hence in the 503 message. */
  service?: string;
}

export interface InternalRequestOptions {
  /** Sent as `x-request-id` so the service logs the same request id as its caller. */
  requestId?: string;
  /** 5xx statuses returned (with their JSON body) for the typed client to read instead of thrown as an outage, e.g. a 503 that carries progress. */
  returnStatuses?: readonly number[];
}

export interface InternalResponse<T> {
  status: number;
  /** The parsed JSON body; null when the service answered none. */
  body: T;
}

/**
 * A 4xx the calling code did not expect from an internal route (wrong token, invalid request, a
 * route that is not there): a bug or a misconfiguration, not an outage, so not a 503. It surfaces
 * as a 500 `internal` and is logged with its stack.
 */
export class InternalServiceResponseError extends Error {
  constructor(
    readonly service: string,
    readonly status: number,
    /** The `code` of the service's error body, when it had one. */
    readonly code: string | undefined,
    request: string,
  ) {
    super(`${service} answered ${request} with ${status}${code ? ` ${code}` : ''}`);
    this.name = 'InternalServiceResponseError';
  }

  static of(service: string, request: string, res: InternalResponse<unknown>): InternalServiceResponseError {
    const body = res.body as { code?: unknown } | null;
    const code = body && typeof body === 'object' && typeof body.code === 'string' ? body.code : undefined;
    return new InternalServiceResponseError(service, res.status, code, request);
  }
}

/**
 * Distributed mode: one service calling another's internal routes over a keep-alive pool, with the
 * internal token and the caller in the headers the service trusts. Fails closed: when the service
 * cannot answer (connection error, timeout, 5xx, a body that is not JSON) the request throws
 * DependencyUnavailableError, which the error model answers with 503. Any 2xx–4xx is returned
 * for the typed client to interpret.
 */
export class InternalServiceClient {
  readonly service: string;
  private readonly pool: UpstreamPool;
  private readonly timeoutMs: number;

  constructor(
    readonly baseUrl: string,
    private readonly internalToken: string,
    options: InternalServiceClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.service = options.service ?? 'an internal service';
    // keepAliveTimeout stays below the services' 65 s so the client, not the server, closes idle sockets.
    // One URL, or replicas comma-separated (balanced, with failover while a replica is down).
    this.pool = upstreamPool(baseUrl, {
      connections: options.connections ?? 32,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: this.timeoutMs },
    });
  }

  async request<T = unknown>(
    method: InternalMethod,
    path: string,
    caller: Caller,
    body?: unknown,
    options: InternalRequestOptions = {},
  ): Promise<InternalResponse<T>> {
    if (!path.startsWith('/')) throw new Error(`internal request path must start with "/": ${path}`);
    const headers: Record<string, string> = { ...internalCallerHeaders(this.internalToken, caller, options.requestId), accept: 'application/json' };
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }

    // headersTimeout/bodyTimeout bound each phase; this deadline bounds the sum, including the
    // wait for a free connection when the pool is busy.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`${method} ${path} timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await requestAnyReplica(this.pool, { method, path, headers, body: payload, signal: deadline.signal });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      throw new DependencyUnavailableError(this.service, err);
    } finally {
      clearTimeout(timer);
    }

    if (status >= 500 && !options.returnStatuses?.includes(status))
      throw new DependencyUnavailableError(this.service, new Error(`${method} ${path} answered ${status}`));
    try {
      return { status, body: (text === '' ? null : JSON.parse(text)) as T };
    } catch (err) {
      throw new DependencyUnavailableError(this.service, new Error(`${method} ${path} answered ${status} with a body that is not JSON`, { cause: err }));
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
