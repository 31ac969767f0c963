// How long a decided call is kept (DESIGN 6.16), whichever path decided it: the evaluator's
// evaluations and the decision proxy's mandate-path decisions share these rules.

/** How long calls are kept, and the largest one that is. */
export interface CallRetention {
  /** 0 keeps none. */
  days: number;
  /** UTF-8 bytes of the call's JSON; a larger call's decision is recorded without it. */
  maxBytes: number;
}

export const DEFAULT_CALL_RETENTION: CallRetention = { days: 7, maxBytes: 64 * 1024 };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The call to keep with a decision, or null when retention is off or the call is over the cap.
 * `json` is the call's JSON as it would be stored (its size is what the cap counts).
 */
export function keptCall<T>(call: T, json: string, retention: CallRetention): T | null {
  if (!(retention.days > 0)) return null;
  return Buffer.byteLength(json, 'utf8') <= retention.maxBytes ? call : null;
}

/** Calls recorded before this instant are past the window: never shown, and purged. */
export function retentionCutoff(now: Date, retention: Pick<CallRetention, 'days'> & Partial<CallRetention>): Date {
  return new Date(now.getTime() - Math.max(0, retention.days) * DAY_MS);
}
