/** DESIGN 6.11: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h; then the delivery is exhausted. */
export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [5, 300, 1800, 7200, 18000, 36000];

/** A Retry-After longer than this is capped (a receiver cannot park a delivery for weeks). */
export const MAX_RETRY_AFTER_S = 24 * 3600;

/** What an attempt's answer means for the delivery. */
export type AttemptVerdict = 'delivered' | 'gone' | 'retry';

/** 2xx only is success; 410 Gone disables the endpoint; anything else (and no answer) is retried. */
export function verdictOf(status: number | null): AttemptVerdict {
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  return 'retry';
}

/**
 * Seconds a `Retry-After` header asks for (delta-seconds or an HTTP-date), capped at
 * MAX_RETRY_AFTER_S; null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (/^\d{1,10}$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_S);
  // HTTP-date (IMF-fixdate and the obsolete forms Date.parse understands).
  if (!/^[A-Za-z]{3},? /.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), MAX_RETRY_AFTER_S);
}

/**
 * When to try again after `attemptsMade` failed attempts (1 = the first try failed), or null when
 * the schedule is used up. A Retry-After is honoured: never earlier than the receiver asked,
 * never earlier than the schedule says.
 */
export function nextAttemptAt(attemptsMade: number, schedule: readonly number[], now: Date, retryAfterS: number | null = null): Date | null {
  const delay = schedule[attemptsMade - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.max(delay, retryAfterS ?? 0) * 1000);
}

/**
 * WEBHOOK_RETRY_SCHEDULE: a comma list of durations (`5s,5m,30m,2h,5h,10h`; a bare number is
 * seconds). Throws RangeError naming the bad entry.
 */
export function parseRetrySchedule(text: string): number[] {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  return text.split(',').map((raw) => {
    const entry = raw.trim();
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(entry);
    if (!m) throw new RangeError(`"${entry}" is not a duration (use e.g. 5s, 5m, 2h)`);
    const seconds = Number(m[1]) * (units[m[2] ?? 's'] ?? 1);
    if (!(seconds > 0) || seconds > 7 * 24 * 3600) throw new RangeError(`"${entry}" must be more than 0 and at most 7 days`);
    return seconds;
  });
}
