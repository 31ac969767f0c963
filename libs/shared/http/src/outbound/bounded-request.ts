import { request, type Dispatcher } from 'undici';

export type OutboundFailure = 'timeout' | 'too_large' | 'network';

/** Why an outbound call gave no usable answer; each adapter maps it to its own error type. */
export class OutboundRequestError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
    /** The status of an answer whose body was too large. */
    readonly status?: number,
    /** The system error code of a network failure (ECONNREFUSED…). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface BoundedRequestOptions {
  method: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  dispatcher: Dispatcher;
  /** One deadline for connect, answer and body. */
  timeoutMs: number;
  /** Bodies larger than this are refused (`too_large`) without being kept. */
  maxBytes: number;
  /** When it answers false for a status, the body is discarded unread and `text` is ''. Default: read every body. */
  readBody?: (status: number) => boolean;
}

/**
 * One outbound HTTP call to a third party or another service with the bounds every adapter needs:
 * a single deadline (a slow body cannot outlive it) and a size cap on the body. Answers
 * `{status, text}` for any status; throws OutboundRequestError for a timeout, an oversized body or
 * a network failure. Never puts the request or the body into an error message.
 */
export async function boundedRequest(url: string, options: BoundedRequestOptions): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  timer.unref?.();
  try {
    const res = await request(url, {
      method: options.method,
      headers: options.headers,
      body: options.body,
      signal: controller.signal,
      dispatcher: options.dispatcher,
    });
    if (options.readBody && !options.readBody(res.statusCode)) {
      await res.body.dump().catch(() => undefined);
      return { status: res.statusCode, text: '' };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        res.body.destroy();
        throw new OutboundRequestError('too_large', `the answer is larger than ${options.maxBytes} bytes`, res.statusCode);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    if (err instanceof OutboundRequestError) throw err;
    if (timedOut) throw new OutboundRequestError('timeout', `no answer within ${options.timeoutMs} ms`);
    const code = (err as { code?: unknown })?.code;
    throw new OutboundRequestError(
      'network',
      `unreachable${typeof code === 'string' ? ` (${code})` : ''}`,
      undefined,
      typeof code === 'string' ? code : undefined,
    );
  } finally {
    clearTimeout(timer);
  }
}
