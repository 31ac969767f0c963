import { invalidRequest } from './errors';

/** Keyset position: newest first, ordered by (created_at desc, id desc). */
export interface PageKey {
  createdAt: Date;
  id: string;
}

export interface PageRequest {
  limit: number;
  /** Return only rows strictly after this key in list order. */
  after: PageKey | null;
}

/** DESIGN 6.12: a page holds at most 200 items. */
export const PAGE_LIMIT_MAX = 200;

/** Query-string values as a router hands them over (absent, one value, or repeated). */
export type QueryValue = string | string[] | undefined;

export function single(name: string, value: QueryValue): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) || typeof value !== 'string')
    throw invalidRequest(`${name} must be given once`, [{ path: name, message: `${name} must be given once` }]);
  return value;
}

/** An opaque cursor: base64url of `{created_at, id}` of the last row of the previous page. */
export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify({ created_at: key.createdAt.toISOString(), id: key.id })).toString('base64url');
}

export function decodeCursor(cursor: string): PageKey {
  const bad = () => invalidRequest('cursor is not a cursor this API returned', [{ path: 'cursor', message: 'cursor is malformed' }]);
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const p = parsed as { created_at?: unknown; id?: unknown };
  if (!p || typeof p !== 'object' || typeof p.created_at !== 'string' || typeof p.id !== 'string' || p.id === '') throw bad();
  const createdAt = new Date(p.created_at);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== p.created_at) throw bad();
  return { createdAt, id: p.id };
}

/** `limit` (1..200, default per route) and `cursor` from the query string; 400 naming the parameter. */
export function parseKeysetQuery(query: { limit?: QueryValue; cursor?: QueryValue }, options: { defaultLimit: number }): PageRequest {
  const limitText = single('limit', query.limit);
  let limit: number = options.defaultLimit;
  if (limitText !== undefined) {
    limit = /^\d{1,6}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= PAGE_LIMIT_MAX)) {
      const message = `limit must be an integer from 1 to ${PAGE_LIMIT_MAX}`;
      throw invalidRequest(message, [{ path: 'limit', message }]);
    }
  }
  const cursorText = single('cursor', query.cursor);
  return { limit, after: cursorText === undefined || cursorText === '' ? null : decodeCursor(cursorText) };
}

/** Given up to limit + 1 rows in list order, the page and the cursor of the next one. */
export function toPage<T extends PageKey>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last ? encodeCursor(last) : null };
}

/** A list's `status` filter: absent, or one of `allowed` (anything else names the parameter). */
export function parseStatusFilter<S extends string>(value: QueryValue, allowed: readonly S[]): S | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    const message = `status must be one of ${allowed.join(', ')}`;
    throw invalidRequest(message, [{ path: 'status', message }]);
  }
  return value as S;
}
