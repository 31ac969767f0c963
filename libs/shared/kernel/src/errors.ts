/**
 * Every failure the API reports is an AppError: a stable machine `code`, a human `message`,
 * a `kind` that the HTTP layer maps to a status (the domain knows no HTTP), and optional
 * extra body fields (e.g. `details`, `suggested_scope`).
 */
export type ErrorKind =
  'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'payload_too_large' | 'rate_limited' | 'unavailable' | 'internal' | 'bad_gateway';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalidRequest = (message: string, details?: ErrorDetail[]) => new AppError('invalid', 'invalid_request', message, details ? { details } : {});
/** Throws 400 `invalid_request` for every problem at once, headed by the first; does nothing when there are none. */
export function throwIfInvalid(details: readonly ErrorDetail[]): void {
  const [first] = details;
  if (first !== undefined) throw invalidRequest(first.message, [...details]);
}
export const notFound = (what = 'resource', code = 'not_found') => new AppError('not_found', code, `${what} not found`);
/** The value a lookup found, or 404 `not_found` for `what` (absent, or another org's). */
export function foundOr404<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw notFound(what);
  return value;
}
export const conflict = (code: string, message: string) => new AppError('conflict', code, message);
export const forbidden = (code: string, message: string, extra?: Record<string, unknown>) => new AppError('forbidden', code, message, extra);
export const unauthenticated = (message = 'a valid API key is required') => new AppError('unauthenticated', 'unauthenticated', message);
export const unavailable = (message = 'a dependency is unavailable; retry later') => new AppError('unavailable', 'unavailable', message);
export const rateLimited = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', code, message, { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** Infrastructure adapters throw this when their backing service is down; callers fail closed. */
export class DependencyUnavailableError extends AppError {
  constructor(
    readonly dependency: string,
    cause?: unknown,
  ) {
    super('unavailable', 'unavailable', `${dependency} is unavailable; retry later`);
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/**
 * A record the store refused for a reason other than an outage (poison): it was set aside (a dead
 * letter with the reason, counted in health) and the request that made it fails alone — nothing it
 * asked for was granted. Already reported where it was set aside, so not logged again per request.
 */
export class RecordRefusedError extends AppError {
  readonly reported = true;
  constructor(what: string, cause?: unknown) {
    super('internal', 'record_refused', `the ${what} could not be stored and was set aside for an operator; nothing was granted`);
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}
