import { invalidRequest, type ErrorDetail } from '@igw/kernel';
import { isEvaluationOutcome, EVALUATION_OUTCOMES, type EvaluationOutcome } from '../evaluation/outcome';

/**
 * `GET /v1/intent/history` paging (DESIGN 6.6): newest first, keyset over `(created_at, id)`
 * (both descending), so a page costs the same however deep it is and new events never shift
 * the pages a client is walking. The cursor is opaque to clients: base64url of versioned JSON
 * `{"v":1,"t":<created_at ISO>,"id":<event id>}` naming the last event of the previous page.
 * `created_at` has millisecond precision (it comes from the Clock), so the cursor is exact.
 */

export const HISTORY_LIMIT = { default: 50, max: 200 } as const;
const CURSOR_VERSION = 1;
/** Cursors we issue are ~100 characters; anything much longer is refused unparsed. */
const MAX_CURSOR_LENGTH = 512;

/** The position after which the next page starts: the last event of the previous page. */
export interface HistoryCursor {
  createdAt: Date;
  id: string;
}

export interface HistoryQuery {
  limit: number;
  outcome: EvaluationOutcome | null;
  /** Only events with `created_at >= since`. */
  since: Date | null;
  /** Only events strictly after this position in newest-first order. */
  after: HistoryCursor | null;
}

/** Query-string values as a router hands them over (absent, one value, or repeated). */
export type QueryValue = string | string[] | undefined;

// --- base64url without Buffer: the domain is plain TypeScript --------------------------------

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** null when the text is not base64url of UTF-8 (the caller re-encodes to insist on canonical form). */
function fromBase64Url(text: string): string | null {
  if (text.length % 4 === 1) return null;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

// --- cursor ------------------------------------------------------------------------------------

export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return toBase64Url(JSON.stringify({ v: CURSOR_VERSION, t: cursor.createdAt.toISOString(), id: cursor.id }));
}

const badCursor = () =>
  invalidRequest('cursor is not a cursor this API returned; start again without it', [{ path: 'cursor', message: 'cursor is malformed' }]);

/** The position a cursor names; 400 `invalid_request` (path `cursor`) for anything we did not issue. */
export function decodeHistoryCursor(text: string): HistoryCursor {
  if (text.length > MAX_CURSOR_LENGTH) throw badCursor();
  const json = fromBase64Url(text);
  if (json === null) throw badCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw badCursor();
  }
  const p = parsed as { v?: unknown; t?: unknown; id?: unknown } | null;
  if (typeof p !== 'object' || p === null || Array.isArray(p) || p.v !== CURSOR_VERSION) throw badCursor();
  if (typeof p.t !== 'string' || typeof p.id !== 'string' || p.id === '') throw badCursor();
  const createdAt = new Date(p.t);
  if (Number.isNaN(createdAt.getTime())) throw badCursor();
  const cursor = { createdAt, id: p.id };
  // Only the exact bytes we issue: no extra fields, other spellings of the date, or padding.
  if (encodeHistoryCursor(cursor) !== text) throw badCursor();
  return cursor;
}

// --- query ---------------------------------------------------------------------------------------

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?$/i;

/**
 * An ISO 8601 timestamp: a date (`2026-01-31`, midnight UTC) or a date-time with seconds and
 * fraction optional and a zone required (`Z` or `±hh:mm`) — a zoneless time would mean
 * whatever the server's zone is. Impossible dates (`2026-02-30`) are refused. null if invalid.
 */
export function parseIsoTimestamp(text: string): Date | null {
  const m = ISO_8601.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const [oh, om] = zone.slice(1).split(':').map(Number) as [number, number];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2026-02-30 over into March: a changed day means the date does not exist.
  if (new Date(local).getUTCDate() !== day) return null;
  const date = new Date(local - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * `limit` (1–200, default 50), `outcome` (one of the five), `since` (ISO 8601) and `cursor` from
 * the query string. Every problem is reported at once: 400 `invalid_request` whose `details`
 * name each offending parameter.
 */
export function parseHistoryQuery(query: { limit?: QueryValue; outcome?: QueryValue; since?: QueryValue; cursor?: QueryValue }): HistoryQuery {
  const details: ErrorDetail[] = [];
  const fail = (path: string, message: string) => details.push({ path, message });
  const single = (name: string, value: QueryValue): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    fail(name, `${name} must be given once`);
    return undefined;
  };

  let limit: number = HISTORY_LIMIT.default;
  const limitText = single('limit', query.limit);
  if (limitText !== undefined) {
    limit = /^\d{1,6}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= HISTORY_LIMIT.max)) fail('limit', `limit must be an integer from 1 to ${HISTORY_LIMIT.max}`);
  }

  let outcome: EvaluationOutcome | null = null;
  const outcomeText = single('outcome', query.outcome);
  if (outcomeText !== undefined) {
    if (isEvaluationOutcome(outcomeText)) outcome = outcomeText;
    else fail('outcome', `outcome must be one of ${EVALUATION_OUTCOMES.join(', ')}`);
  }

  let since: Date | null = null;
  const sinceText = single('since', query.since);
  if (sinceText !== undefined) {
    since = parseIsoTimestamp(sinceText);
    if (since === null) fail('since', 'since must be an ISO 8601 timestamp with a time zone (e.g. 2026-01-31T12:00:00Z) or a date');
  }

  let after: HistoryCursor | null = null;
  const cursorText = single('cursor', query.cursor);
  if (cursorText !== undefined && cursorText !== '') {
    try {
      after = decodeHistoryCursor(cursorText);
    } catch {
      fail('cursor', 'cursor is malformed');
    }
  }

  if (details.length > 0) throw invalidRequest(details[0]!.message, details);
  return { limit, outcome, since, after };
}

/** Given up to `limit + 1` rows in newest-first order: the page, and the cursor of the next one. */
export function toHistoryPage<T extends HistoryCursor>(rows: readonly T[], limit: number): { items: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: [...rows], nextCursor: null };
  const items = rows.slice(0, limit);
  return { items, nextCursor: encodeHistoryCursor(items[items.length - 1]!) };
}
