import { GatewayNetworkError, parseRetryAfterSeconds } from './errors';

/** Methods that may be sent again without changing the outcome; POST and PATCH never are. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Statuses that say "try again later". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 = no retries). */
  maxAttempts?: number;
  /** Backoff without `Retry-After`: baseDelayMs · 2^(retry − 1), halved at random (default 250). */
  baseDelayMs?: number;
  /** Ceiling of the backoff (default 10 s). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the 429/503 is returned (default 60 s). */
  maxRetryAfterMs?: number;
}

export interface RetryEvent {
  method: string;
  url: string;
  status: number;
  /** The attempt that just failed (1 = the first). */
  attempt: number;
  delayMs: number;
}

export interface TransportOptions {
  fetch?: (input: Request) => Promise<Response>;
  /** Deadline of each attempt (default 30 s); a request's own `signal` aborts all of them. */
  timeoutMs?: number;
  retry?: RetryOptions | false;
  /** Told before each wait (e.g. to show progress). */
  onRetry?: (event: RetryEvent) => void;
  /** Injected in tests: the wait between attempts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Injected in tests: jitter source in [0, 1). */
  random?: () => number;
}

const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };
export const DEFAULT_TIMEOUT_MS = 30_000;

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait before retry number `retry` (1-based): `Retry-After` when given, else exponential backoff with jitter. */
export function retryDelayMs(retry: number, retryAfterSeconds: number | undefined, opts: Required<RetryOptions>, random: () => number): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  const exp = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}

/**
 * A fetch for openapi-fetch: a deadline per attempt, and bounded retries of idempotent requests
 * (GET, HEAD, PUT, DELETE) answered 429 or 503, honouring `Retry-After`. POST is sent once, always.
 * Failures to get any answer become GatewayNetworkError; the caller's own abort is passed through.
 */
export function createTransport(options: TransportOptions = {}): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((req: Request) => globalThis.fetch(req));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retry = options.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;

  return async (request: Request) => {
    const idempotent = IDEMPOTENT_METHODS.has(request.method.toUpperCase());
    const attempts = idempotent ? Math.max(1, retry.maxAttempts) : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([request.signal, timeout]);
      const attemptRequest = new Request(last ? request : request.clone(), { signal });
      let response: Response;
      try {
        response = await send(attemptRequest);
      } catch (err) {
        if (request.signal.aborted) throw request.signal.reason ?? err;
        if (timeout.aborted) throw new GatewayNetworkError(`${request.method} ${request.url}: no answer within ${timeoutMs} ms`, true, { cause: err });
        const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
        const why = cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
        throw new GatewayNetworkError(`${request.method} ${request.url}: ${why}`, false, { cause: err });
      }
      if (last || !RETRYABLE_STATUSES.has(response.status)) return response;
      const retryAfter = parseRetryAfterSeconds(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter * 1000 > retry.maxRetryAfterMs) return response;
      const delayMs = retryDelayMs(attempt, retryAfter, retry, random);
      await response.body?.cancel().catch(() => undefined);
      options.onRetry?.({ method: request.method, url: request.url, status: response.status, attempt, delayMs });
      await sleep(delayMs, request.signal);
    }
  };
}
