import { Agent, request } from 'undici';
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
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    timer.unref?.();
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.#authorization) headers['authorization'] = this.#authorization;
    try {
      const res = await request(`${this.base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: controller.signal,
        dispatcher: this.agent,
      });
      if (res.statusCode < 200 || res.statusCode > 299) {
        await res.body.dump().catch(() => undefined);
        throw new ModelEndpointError('http_error', `${this.what} endpoint answered HTTP ${res.statusCode}`, res.statusCode);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new ModelEndpointError('malformed_response', `${this.what} answer is larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      try {
        return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      } catch {
        throw new ModelEndpointError('malformed_response', `${this.what} answer is not JSON`);
      }
    } catch (err) {
      if (timedOut) throw new ModelEndpointError('timeout', `${this.what} endpoint gave no answer within ${timeoutMs} ms`);
      if (err instanceof ModelEndpointError) throw err;
      const code = (err as { code?: unknown })?.code;
      throw new ModelEndpointError('network_error', `${this.what} endpoint unreachable${typeof code === 'string' ? ` (${code})` : ''}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
