/** One field-level problem of a 400 `invalid_request`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The API's error body: `{code, message, details?}`; some errors add fields (e.g. `suggested_scope`). */
export interface ApiErrorBody {
  code: string;
  message: string;
  details?: ErrorDetail[];
  [field: string]: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The gateway answered with an error status. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  /** The whole error body (extra fields such as `suggested_scope` included). */
  readonly body: ApiErrorBody;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] | undefined = undefined,
    body?: ApiErrorBody,
    /** `Retry-After` in seconds, on 429 and 503 when the gateway sent one. */
    readonly retryAfterSeconds: number | undefined = undefined,
  ) {
    super(message);
    this.body = body ?? { code, message, ...(details ? { details } : {}) };
  }

  /** From a status and whatever body came with it (JSON error body or anything else). */
  static from(status: number, body: unknown, headers?: Headers): GatewayError {
    const retryAfter = headers ? parseRetryAfterSeconds(headers.get('retry-after')) : undefined;
    if (isRecord(body) && typeof body['code'] === 'string' && typeof body['message'] === 'string') {
      const details = Array.isArray(body['details']) ? (body['details'] as ErrorDetail[]) : undefined;
      return new GatewayError(status, body['code'], body['message'], details, body as ApiErrorBody, retryAfter);
    }
    const text = typeof body === 'string' && body !== '' ? body.slice(0, 200) : `HTTP ${status}`;
    return new GatewayError(status, `http_${status}`, text, undefined, undefined, retryAfter);
  }
}

/** The request never got an answer: connection refused or reset, DNS, or the timeout elapsed. */
export class GatewayNetworkError extends Error {
  override readonly name = 'GatewayNetworkError';
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `Retry-After` as whole seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfterSeconds(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
