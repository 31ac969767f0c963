import { GatewayError, GatewayNetworkError } from '@igw/sdk';

/** What `igw` exits with; scripts may rely on these (README of libs/sdk documents them). */
export const EXIT = {
  ok: 0,
  /** Bad command line, bad JSON in an option, no URL or key configured. */
  usage: 1,
  /** 404. */
  notFound: 2,
  /** 401 or 403 (an error: a refused decision is 8). */
  unauthorized: 3,
  /** 409. */
  conflict: 4,
  /** 429 or 503, after the retries the method allows. */
  unavailable: 5,
  /** Any other error status (400, 422, 500, …). */
  apiError: 6,
  /** No answer: connection refused, DNS, timeout. */
  network: 7,
  /** The gateway answered, and refused the call: `evaluate` denied or pending approval, `call` deny / approval / step_up. */
  refused: 8,
  /** `replay`: the draft would change at least one recorded decision (0: none would). */
  changed: 9,
} as const;

/** A mistake on the command line (exit 1). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof GatewayNetworkError) return EXIT.network;
  if (err instanceof GatewayError) {
    if (err.status === 404) return EXIT.notFound;
    if (err.status === 401 || err.status === 403) return EXIT.unauthorized;
    if (err.status === 409) return EXIT.conflict;
    if (err.status === 429 || err.status === 503) return EXIT.unavailable;
    return EXIT.apiError;
  }
  return EXIT.apiError;
}

/** The error as one JSON document (for --json). */
export function errorDocument(err: unknown): { error: Record<string, unknown> } {
  if (err instanceof GatewayError) return { error: { status: err.status, ...err.body, code: err.code, message: err.message } };
  if (err instanceof GatewayNetworkError) return { error: { code: err.timedOut ? 'timeout' : 'network_error', message: err.message } };
  if (err instanceof UsageError) return { error: { code: 'usage', message: err.message } };
  return { error: { code: 'internal', message: (err as Error)?.message ?? String(err) } };
}
