import { decodeCursor, PAGE_LIMIT_MAX, parseIsoTimestamp, single, throwIfInvalid, type ErrorDetail, type PageKey, type QueryValue } from '@igw/kernel';
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
  /** `include=call`: each event with the call it decided, while the call is kept (DESIGN 6.16). */
  includeCall: boolean;
}

/** What `include` may ask for. */
export const HISTORY_INCLUDES = ['call'] as const;

/**
 * `limit` (1–200, default 50), `outcome` (one of the five), `since` (ISO 8601), `include` and `cursor` from
 * the query string. Every problem is reported at once: 400 `invalid_request` whose `details`
 * name each offending parameter.
 */
export function parseHistoryQuery(query: {
  limit?: QueryValue;
  outcome?: QueryValue;
  since?: QueryValue;
  cursor?: QueryValue;
  include?: QueryValue;
}): HistoryQuery {
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

  let includeCall = false;
  const includeText = once('include', query.include);
  if (includeText !== undefined) {
    if ((HISTORY_INCLUDES as readonly string[]).includes(includeText)) includeCall = true;
    else fail('include', `include must be one of ${HISTORY_INCLUDES.join(', ')}`);
  }

  throwIfInvalid(details);
  return { limit, outcome, since, after, includeCall };
}
