import { DependencyUnavailableError } from '@igw/kernel';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const ADAPTER_CONNECTION_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed']);

/**
 * True when an error means "the database could not be reached" rather than "the query was
 * wrong". Looks through Prisma's wrappers and driver-adapter causes by shape, so callers need
 * no Prisma types.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; kind?: unknown; errorCode?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || PRISMA_CONNECTION_CODES.has(e.code))) return true;
  if (typeof e.errorCode === 'string' && PRISMA_CONNECTION_CODES.has(e.errorCode)) return true;
  if (typeof e.kind === 'string' && ADAPTER_CONNECTION_KINDS.has(e.kind)) return true;
  if (e.name === 'PrismaClientInitializationError') return true;
  if (
    typeof e.message === 'string' &&
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Can't reach database server|terminating connection|Query read timeout/i.test(
      e.message,
    )
  )
    return true;
  if (e.cause && isDatabaseUnavailable(e.cause, depth + 1)) return true;
  return false;
}

/** Rethrows connection failures as DependencyUnavailableError (→ 503), anything else as is. */
export function rethrowUnavailable(err: unknown): never {
  if (isDatabaseUnavailable(err)) throw new DependencyUnavailableError('database', err);
  throw err;
}

/**
 * How a failed write is to be read:
 * - `outage`: the database cannot take writes now (unreachable, out of resources, shutting down,
 *   a serialization failure) — retry later, answer 503;
 * - `record`: the data was refused (SQLSTATE class 22 data exception or 23 integrity violation, or
 *   an error with no SQLSTATE raised while preparing the data) — some record of the batch is
 *   poison, the others may well be fine;
 * - `systemic`: anything else (undefined table, syntax, internal error) — every record would fail
 *   the same way, so none is to blame.
 */
export function classifyWriteError(err: unknown): 'outage' | 'record' | 'systemic' {
  if (err instanceof DependencyUnavailableError || isDatabaseUnavailable(err)) return 'outage';
  const state = sqlState(err);
  if (state === null) return 'record';
  const cls = state.slice(0, 2);
  if (cls === '22' || cls === '23') return 'record';
  if (cls === '08' || cls === '40' || cls === '53' || cls === '57' || cls === '58') return 'outage';
  return 'systemic';
}

function sqlState(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== 'object' || depth > 5) return null;
  const e = err as { code?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return sqlState(e.cause, depth + 1);
}
