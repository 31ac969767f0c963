// The call a mandate-path decision decided, kept for a window (DESIGN 6.16) so the decision list
// can show it and a card draft can be replayed on it. The window and the size cap are the
// kernel's, shared with the evaluator's kept calls.
import { keptCall, type CallRetention } from '@igw/kernel';
import type { ProxyAction } from './decision';

/** What is kept of a call: the action and the context as they were decided, nothing derived. */
export interface DecisionCall {
  action: ProxyAction;
  context?: Record<string, unknown>;
}

/** The call to keep with a decision, or null when retention is off or the call is over the cap. */
export function retainedDecisionCall(call: DecisionCall, retention: CallRetention): DecisionCall | null {
  const kept: DecisionCall = { action: call.action, ...(call.context !== undefined ? { context: call.context } : {}) };
  return keptCall(kept, JSON.stringify([kept.action, kept.context ?? null]), retention);
}
