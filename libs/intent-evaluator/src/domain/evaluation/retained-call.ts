// The call an evaluation decided, kept for a window (DESIGN 6.16) so that history can show it and
// an operator can teach from it. Pure rules: what is kept, and until when.

/** One conversation message as the evaluation received it. */
export interface RetainedMessage {
  role: string;
  content: string;
}

/** What is kept of a call: its name, arguments and conversation context, nothing derived. */
export interface RetainedCall {
  toolName: string;
  arguments?: Record<string, unknown>;
  conversationContext?: RetainedMessage[];
}

/** How long calls are kept, and the largest one that is. */
export interface CallRetention {
  /** 0 keeps none. */
  days: number;
  /** UTF-8 bytes of the call's JSON; a larger call's evaluation is recorded without it. */
  maxBytes: number;
}

export const DEFAULT_CALL_RETENTION: CallRetention = { days: 7, maxBytes: 64 * 1024 };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The call to keep with an evaluation, or null when retention is off or the call is over the cap. */
export function retainedCall(call: RetainedCall, retention: CallRetention): RetainedCall | null {
  if (!(retention.days > 0)) return null;
  const bytes = Buffer.byteLength(JSON.stringify([call.toolName, call.arguments ?? null, call.conversationContext ?? null]), 'utf8');
  return bytes <= retention.maxBytes ? call : null;
}

/** Calls recorded before this instant are past the window: never shown, and purged. */
export function retentionCutoff(now: Date, retention: CallRetention): Date {
  return new Date(now.getTime() - Math.max(0, retention.days) * DAY_MS);
}
