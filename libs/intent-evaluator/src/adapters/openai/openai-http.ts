import { Agent } from 'undici';
import { boundedRequest, OutboundRequestError } from '@igw/http';
import { ModelEndpointError } from '../../application/classification/model-endpoint.error';

export interface OpenAiEndpointOptions {
  /** Base URL of the OpenAI-compatible API, e.g. `https://api.openai.com/v1` (paths are appended). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set. Never logged, never in an error message. */
  apiKey?: string;
  /** Bound for one request (connect, answer and body), ms. */
  timeoutMs?: number;
}

/**
 * JSON POSTs to an OpenAI-compatible API over a keep-alive pool. Every way a request can go
 * wrong becomes a ModelEndpointError: the deadline passed (`timeout`), a non-2xx status
 * (`http_error`, the body is discarded: it may echo the request), a connection failure
 * (`network_error`), a body that is not JSON or too large (`malformed_response`).
 */
export class OpenAiHttp {
  readonly #authorization: string | undefined;
  private readonly agent = new Agent({ connections: 32, keepAliveTimeout: 30_000 });
  private readonly base: string;

  constructor(
    baseUrl: string,
    apiKey: string | undefined,
    /** Names the endpoint in error messages ("embeddings", "chat"). */
    private readonly what: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.#authorization = apiKey ? `Bearer ${apiKey}` : undefined;
  }

  async postJson(path: string, body: unknown, timeoutMs: number, maxBytes: number): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.#authorization) headers['authorization'] = this.#authorization;
    let answer: { status: number; text: string };
    try {
      answer = await boundedRequest(`${this.base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        dispatcher: this.agent,
        timeoutMs,
        maxBytes,
        // A refused request's body may echo the request: never read it.
        readBody: (status) => status >= 200 && status <= 299,
      });
    } catch (err) {
      if (!(err instanceof OutboundRequestError)) throw err;
      if (err.failure === 'timeout') throw new ModelEndpointError('timeout', `${this.what} endpoint gave no answer within ${timeoutMs} ms`);
      if (err.failure === 'too_large') throw new ModelEndpointError('malformed_response', `${this.what} answer is larger than ${maxBytes} bytes`);
      throw new ModelEndpointError('network_error', `${this.what} endpoint unreachable${err.code ? ` (${err.code})` : ''}`);
    }
    if (answer.status < 200 || answer.status > 299)
      throw new ModelEndpointError('http_error', `${this.what} endpoint answered HTTP ${answer.status}`, answer.status);
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw new ModelEndpointError('malformed_response', `${this.what} answer is not JSON`);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** What both model clients hold: the endpoint's pool, its model and a ceiling on each call's deadline. */
export abstract class OpenAiEndpoint {
  protected readonly http: OpenAiHttp;
  private readonly timeoutMs: number;
  readonly model: string;

  constructor(options: OpenAiEndpointOptions, what: string, defaultTimeoutMs: number) {
    this.http = new OpenAiHttp(options.baseUrl, options.apiKey, what);
    this.model = options.model;
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  }

  /** A call may ask for a shorter deadline than the client's, never a longer one. */
  protected deadline(requested: number | undefined): number {
    return Math.min(requested ?? this.timeoutMs, this.timeoutMs);
  }

  /** Closes the keep-alive pool (Nest calls it on shutdown). */
  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}
