// The call an evaluation decided, kept for a window (DESIGN 6.16) so that history can show it and
// an operator can teach from it. What is kept; the window and the cap are the kernel's (shared
// with the mandate path).
import { keptCall, type CallRetention } from '@igw/kernel';

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

export { DEFAULT_CALL_RETENTION, retentionCutoff, type CallRetention } from '@igw/kernel';

/** The call to keep with an evaluation, or null when retention is off or the call is over the cap. */
export function retainedCall(call: RetainedCall, retention: CallRetention): RetainedCall | null {
  return keptCall(call, JSON.stringify([call.toolName, call.arguments ?? null, call.conversationContext ?? null]), retention);
}
