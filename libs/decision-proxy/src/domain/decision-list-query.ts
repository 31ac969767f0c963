import {
  DECISION_KINDS,
  decodeCursor,
  PAGE_LIMIT_MAX,
  parseIsoTimestamp,
  single,
  throwIfInvalid,
  type DecisionKind,
  type ErrorDetail,
  type PageKey,
  type QueryValue,
} from '@igw/kernel';

/**
 * `GET /v1/mcp-proxy/decisions`: the org's decisions newest first, keyset over `(created_at,
 * decision_id)`, filtered by mandate (`cred_id`), decision kind and a time range
 * (`since` ≤ created_at < `until`).
 */
export interface DecisionListQuery {
  limit: number;
  credId?: string;
  kind?: DecisionKind;
  since?: Date;
  until?: Date;
  after: PageKey | null;
  /** `include=call`: each decision with the call it decided while that is kept (DESIGN 6.16). */
  includeCall?: boolean;
}

/** What `include` may name. */
export const DECISION_LIST_INCLUDES = ['call'] as const;

const DEFAULT_LIMIT = 50;
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Reads the query string; every problem at once (400 `invalid_request`, `details` per parameter). */
export function parseDecisionListQuery(query: {
  limit?: QueryValue;
  cursor?: QueryValue;
  cred_id?: QueryValue;
  kind?: QueryValue;
  since?: QueryValue;
  until?: QueryValue;
  include?: QueryValue;
}): DecisionListQuery {
  const details: ErrorDetail[] = [];
  const fail = (path: string, message: string) => details.push({ path, message });
  const read = (name: string, value: QueryValue): string | undefined => {
    try {
      return single(name, value);
    } catch {
      fail(name, `${name} must be given once`);
      return undefined;
    }
  };
  const out: DecisionListQuery = { limit: DEFAULT_LIMIT, after: null, includeCall: false };

  const limit = read('limit', query.limit);
  if (limit !== undefined) {
    const n = /^\d{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (n >= 1 && n <= PAGE_LIMIT_MAX) out.limit = n;
    else fail('limit', `limit must be an integer from 1 to ${PAGE_LIMIT_MAX}`);
  }
  const credId = read('cred_id', query.cred_id);
  if (credId !== undefined) {
    if (ID.test(credId)) out.credId = credId;
    else fail('cred_id', 'cred_id must be a credential id (cred_…)');
  }
  const kind = read('kind', query.kind);
  if (kind !== undefined) {
    if ((DECISION_KINDS as readonly string[]).includes(kind)) out.kind = kind as DecisionKind;
    else fail('kind', `kind must be one of ${DECISION_KINDS.join(', ')}`);
  }
  for (const name of ['since', 'until'] as const) {
    const text = read(name, query[name]);
    if (text === undefined) continue;
    const at = parseIsoTimestamp(text);
    if (at) out[name] = at;
    else fail(name, `${name} must be an ISO 8601 timestamp with a time zone (e.g. 2026-01-31T12:00:00Z) or a date`);
  }
  if (out.since && out.until && out.since >= out.until) fail('until', 'until must be later than since');
  const cursor = read('cursor', query.cursor);
  if (cursor !== undefined && cursor !== '') {
    try {
      out.after = decodeCursor(cursor);
    } catch {
      fail('cursor', 'cursor is malformed');
    }
  }
  const include = read('include', query.include);
  if (include !== undefined) {
    if ((DECISION_LIST_INCLUDES as readonly string[]).includes(include)) out.includeCall = true;
    else fail('include', `include must be one of ${DECISION_LIST_INCLUDES.join(', ')}`);
  }
  throwIfInvalid(details);
  return out;
}
