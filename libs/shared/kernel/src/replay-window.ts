import { createHash } from 'node:crypto';
import { AppError, conflict, invalidRequest, throwIfInvalid, type ErrorDetail } from './errors';
import { parseIsoTimestamp } from './iso-timestamp';
import type { PageKey } from './keyset-paging';

/**
 * What-if replay (DESIGN 6.16): which kept calls a replay re-decides, and how its pages of
 * changed calls are walked, for both paths (the evaluator's intentions, the proxy's cards). Pure
 * rules, no I/O.
 *
 * The window is `[since, until)`, oldest first, at most `limit` calls. Every page re-runs the
 * whole window, so `replayed` and `transitions` are the same on every page; the cursor fixes the
 * window (absolute `since` / `until`, so "the last 24 hours" does not move), the position of the
 * last changed call listed, and what the replay was of (a digest of the draft and the limit, the
 * registry version it ran against): sent with another draft or after the intentions changed, it
 * is refused rather than answer pages of two different replays.
 */

export interface ReplayWindow {
  since: Date;
  until: Date;
  limit: number;
  /** Changed calls at or before this position were on earlier pages. */
  after: PageKey | null;
}

/** What a cursor carries besides the window. */
export interface ReplayCursor {
  since: Date;
  until: Date;
  after: PageKey;
  /** Digest of the draft and the limit the replay was of. */
  digest: string;
  /** The registry version (intentions or cards counter) it ran against. */
  version: number;
}

const fail = (path: string, message: string): ErrorDetail => ({ path, message });
const TIME_MESSAGE = 'must be an ISO 8601 timestamp with a time zone (e.g. 2026-01-31T12:00:00Z) or a date';

/**
 * The window of a request: `since` defaults to (and is never before) the retention cutoff,
 * `until` to now; a cursor's window wins over the body's. 400 naming `since`, `until` or `cursor`.
 */
export function replayWindow(
  input: { since?: string; until?: string; limit: number; cursor: ReplayCursor | null },
  now: Date,
  retentionCutoff: Date,
): ReplayWindow {
  const details: ErrorDetail[] = [];
  const read = (name: string, text: string | undefined, fallback: Date): Date => {
    if (text === undefined) return fallback;
    const at = parseIsoTimestamp(text);
    if (at === null) details.push(fail(name, `${name} ${TIME_MESSAGE}`));
    return at ?? fallback;
  };
  let since = read('since', input.since, retentionCutoff);
  let until = read('until', input.until, now);
  throwIfInvalid(details);
  if (input.cursor) ({ since, until } = input.cursor);
  if (since < retentionCutoff) since = retentionCutoff;
  if (!(until > since) && input.until !== undefined && input.cursor === null) throwIfInvalid([fail('until', 'until must be after since')]);
  return { since, until, limit: input.limit, after: input.cursor?.after ?? null };
}

/** A request's replay: its window (see replayWindow), its cursor, and the digest its cursors carry. */
export interface OpenedReplay {
  window: ReplayWindow;
  cursor: ReplayCursor | null;
  /** Of the draft and the limit: a cursor of another draft or limit does not carry it. */
  digest: string;
}

/** Reads a replay request of `draft` (either path): its cursor, then its window, then the digest. */
export function openReplay(
  input: { since?: string; until?: string; cursor?: string; limit: number; draft: unknown },
  now: Date,
  retentionCutoff: Date,
): OpenedReplay {
  const cursor = input.cursor !== undefined ? decodeReplayCursor(input.cursor) : null;
  const window = replayWindow({ since: input.since, until: input.until, limit: input.limit, cursor }, now, retentionCutoff);
  const digest = createHash('sha256')
    .update(JSON.stringify([input.draft, input.limit]))
    .digest('base64url');
  return { window, cursor, digest };
}

/** 409 `cursor_stale` for a cursor of another draft or limit, or from before `what` (the intentions, the cards) changed. */
export function assertReplayCursorCurrent(replay: OpenedReplay, version: number, what: string): void {
  if (replay.cursor && (replay.cursor.digest !== replay.digest || replay.cursor.version !== version)) {
    throw conflict('cursor_stale', `the cursor belongs to another draft or limit, or the ${what} changed since; replay again without it`);
  }
}

export function encodeReplayCursor(c: ReplayCursor): string {
  const body = { s: c.since.toISOString(), u: c.until.toISOString(), t: c.after.createdAt.toISOString(), i: c.after.id, d: c.digest, v: c.version };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeReplayCursor(text: string): ReplayCursor {
  const bad = () => invalidRequest('cursor is malformed', [fail('cursor', 'cursor is malformed')]);
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) throw bad();
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw bad();
  }
  if (p === null || typeof p !== 'object') throw bad();
  const at = (v: unknown) => (typeof v === 'string' && !Number.isNaN(new Date(v).getTime()) && new Date(v).toISOString() === v ? new Date(v) : null);
  const since = at(p['s']);
  const until = at(p['u']);
  const after = at(p['t']);
  const { i: id, d: digest, v: version } = p;
  if (!since || !until || !after || typeof id !== 'string' || id === '' || typeof digest !== 'string' || typeof version !== 'number') throw bad();
  return { since, until, after: { createdAt: after, id }, digest, version };
}

/** Counts of changed (from, to) pairs (outcomes or decision kinds), in the order first seen. */
export class TransitionTally<T extends string = string> {
  private readonly counts = new Map<string, { from: T; to: T; count: number }>();

  add(from: T, to: T): void {
    if (from === to) return;
    const key = `${from}>${to}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { from, to, count: 1 });
  }

  list(): { from: T; to: T; count: number }[] {
    return [...this.counts.values()];
  }
}

/** Kept calls read per keyset page: memory stays bounded whatever the window holds. */
export const REPLAY_READ_BATCH = 500;

/** A kept call decided again: the changed pair it counts as, and what the page lists for it. */
export interface ReplayChange<K extends string, C> {
  from: K;
  to: K;
  listed: C;
}

export interface ReplayRun<T extends PageKey, K extends string, C> {
  window: ReplayWindow;
  /** Changed calls listed per page. */
  pageSize: number;
  /** Epoch ms past which the replay answers 503 `replay_deadline` with its progress. */
  deadline: number;
  now: () => Date;
  /** Reads kept calls of the window after `after`, oldest first. */
  page(after: PageKey | null, limit: number): Promise<T[]>;
  /** The kept call decided again; null when nothing about it changed. */
  redecide(kept: T): ReplayChange<K, C> | null | Promise<ReplayChange<K, C> | null>;
  /** What the next page's cursor carries besides the window and position. */
  cursor: { digest: string; version: number };
}

export interface ReplayPage<K extends string, C> {
  replayed: number;
  transitions: { from: K; to: K; count: number }[];
  calls: C[];
  next_cursor: string | null;
}

const orderedAfter = (a: PageKey, b: PageKey) =>
  a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);

/**
 * Walks the whole window (both paths use it): every kept call is decided again and counted; the
 * changed calls after the cursor's position are listed, a page at a time.
 */
export async function runReplay<T extends PageKey, K extends string, C>(run: ReplayRun<T, K, C>): Promise<ReplayPage<K, C>> {
  const { window } = run;
  const tally = new TransitionTally<K>();
  const listed: C[] = [];
  let more = false;
  let last: T | null = null;
  let replayed = 0;
  let position: PageKey | null = null;
  while (replayed < window.limit) {
    const requested = Math.min(REPLAY_READ_BATCH, window.limit - replayed);
    const page = await run.page(position, requested);
    for (const kept of page) {
      if (run.now().getTime() > run.deadline) throw replayPastDeadline(replayed);
      const change = await run.redecide(kept);
      replayed += 1;
      if (change === null) continue;
      tally.add(change.from, change.to);
      if (window.after !== null && !orderedAfter(kept, window.after)) continue;
      if (listed.length === run.pageSize) {
        more = true;
        continue;
      }
      listed.push(change.listed);
      last = kept;
    }
    const tail = page.at(-1);
    if (tail === undefined || page.length < requested) break;
    position = tail;
  }
  const next: ReplayCursor | null = more && last ? { since: window.since, until: window.until, after: last, ...run.cursor } : null;
  return { replayed, transitions: tally.list(), calls: listed, next_cursor: next ? encodeReplayCursor(next) : null };
}

function replayPastDeadline(replayed: number): AppError {
  return new AppError('unavailable', 'replay_deadline', `the replay passed its deadline after ${replayed} calls; narrow the window or lower limit`, {
    replayed,
  });
}
