import { DependencyUnavailableError } from '@igw/kernel';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
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
  if (typeof e.message === 'string' && /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Can't reach database server|terminating connection/i.test(e.message)) return true;
  if (e.cause && isDatabaseUnavailable(e.cause, depth + 1)) return true;
  return false;
}

/** Rethrows connection failures as DependencyUnavailableError (→ 503), anything else as is. */
export function rethrowUnavailable(err: unknown): never {
  if (isDatabaseUnavailable(err)) throw new DependencyUnavailableError('database', err);
  throw err;
}
