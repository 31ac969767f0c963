import { decodeCursor, PAGE_LIMIT_MAX, single, throwIfInvalid, type ErrorDetail, type PageKey, type QueryValue } from '@igw/kernel';
import { isEvaluationOutcome, EVALUATION_OUTCOMES, type EvaluationOutcome } from '../evaluation/outcome';

/**
 * `GET /v1/intent/history` query (DESIGN 6.6): newest first, keyset over `(created_at, id)` with
 * the kernel's opaque cursor, so a page costs the same however deep it is and new events never
 * shift the pages a client is walking. `created_at` has millisecond precision (it comes from
 * the Clock), so the cursor is exact.
 */

export const HISTORY_LIMIT = { default: 50, max: PAGE_LIMIT_MAX } as const;

export interface HistoryQuery {
  limit: number;
  outcome: EvaluationOutcome | null;
  /** Only events with `created_at >= since`. */
  since: Date | null;
  /** Only events strictly after this position in newest-first order. */
  after: PageKey | null;
}

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
  // Every problem is collected, so the kernel's throwing helpers are caught here.
  const attempt = <T>(name: string, message: string, read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      fail(name, message);
      return undefined;
    }
  };
  const once = (name: string, value: QueryValue) => attempt(name, `${name} must be given once`, () => single(name, value));

  let limit: number = HISTORY_LIMIT.default;
  const limitText = once('limit', query.limit);
  if (limitText !== undefined) {
    limit = /^\d{1,6}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= HISTORY_LIMIT.max)) fail('limit', `limit must be an integer from 1 to ${HISTORY_LIMIT.max}`);
  }

  let outcome: EvaluationOutcome | null = null;
  const outcomeText = once('outcome', query.outcome);
  if (outcomeText !== undefined) {
    if (isEvaluationOutcome(outcomeText)) outcome = outcomeText;
    else fail('outcome', `outcome must be one of ${EVALUATION_OUTCOMES.join(', ')}`);
  }

  let since: Date | null = null;
  const sinceText = once('since', query.since);
  if (sinceText !== undefined) {
    since = parseIsoTimestamp(sinceText);
    if (since === null) fail('since', 'since must be an ISO 8601 timestamp with a time zone (e.g. 2026-01-31T12:00:00Z) or a date');
  }

  let after: PageKey | null = null;
  const cursorText = once('cursor', query.cursor);
  if (cursorText !== undefined && cursorText !== '') after = attempt('cursor', 'cursor is malformed', () => decodeCursor(cursorText)) ?? null;

  throwIfInvalid(details);
  return { limit, outcome, since, after };
}
