import { HttpException } from '@nestjs/common';
import { AppError, type ErrorKind } from '@igw/kernel';
import { isDatabaseUnavailable } from '@igw/persistence';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
};

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

export interface ErrorResponse {
  status: number;
  body: { code: string; message: string; [k: string]: unknown };
  headers: Record<string, string>;
  /** True for failures we did not foresee: logged with their stack, answered without it. */
  unexpected: boolean;
}

/**
 * Turns anything thrown into the public error model (DESIGN 6.2). Never leaks a stack or an
 * internal message: unknown errors become 500 `internal`.
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof AppError) {
    const { retry_after, ...extra } = err.extra as { retry_after?: number };
    const headers: Record<string, string> = {};
    if (retry_after !== undefined) headers['retry-after'] = String(retry_after);
    return {
      status: STATUS[err.kind],
      body: { code: err.code, message: err.message, ...extra },
      headers,
      unexpected: err.kind === 'internal' && !(err as { reported?: boolean }).reported,
    };
  }
  if (isDatabaseUnavailable(err)) {
    return { status: 503, body: { code: 'unavailable', message: 'database is unavailable; retry later' }, headers: {}, unexpected: false };
  }
  const fastify = err as { code?: string; statusCode?: number; message?: string };
  if (typeof fastify.code === 'string' && fastify.code.startsWith('FST_')) {
    if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return { status: 413, body: { code: 'payload_too_large', message: 'request body exceeds 256 KiB' }, headers: {}, unexpected: false };
    }
    if (fastify.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return { status: 415, body: { code: 'unsupported_media_type', message: 'request body must be application/json' }, headers: {}, unexpected: false };
    }
    // The router's own refusals (raised before any route runs; see frameworkErrors in http-app).
    if (fastify.code === 'FST_ERR_BAD_URL') {
      const message = 'the URL path is not valid percent-encoded UTF-8';
      return { status: 400, body: { code: 'invalid_request', message, details: [{ path: 'path', message }] }, headers: {}, unexpected: false };
    }
    if (fastify.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      const message = 'a path parameter is longer than 100 characters';
      return { status: 400, body: { code: 'invalid_request', message, details: [{ path: 'path', message }] }, headers: {}, unexpected: false };
    }
    if (fastify.statusCode && fastify.statusCode < 500) {
      return { status: 400, body: { code: 'invalid_request', message: 'request body is not valid JSON' }, headers: {}, unexpected: false };
    }
  }
  if (err instanceof SyntaxError && (err as { statusCode?: number }).statusCode === 400) {
    return { status: 400, body: { code: 'invalid_request', message: 'request body is not valid JSON' }, headers: {}, unexpected: false };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const response = err.getResponse();
    const message =
      typeof response === 'object' && response && 'message' in response && typeof (response as { message: unknown }).message === 'string'
        ? (response as { message: string }).message
        : err.message;
    if (status >= 500) return { status: 500, body: { code: 'internal', message: 'internal error' }, headers: {}, unexpected: true };
    return { status, body: { code: CODE_BY_STATUS[status] ?? 'error', message }, headers: {}, unexpected: false };
  }
  return { status: 500, body: { code: 'internal', message: 'internal error' }, headers: {}, unexpected: true };
}
