import type { DecisionCall } from '../../domain';

export const DECISION_CALLS = Symbol('DECISION_CALLS');

/**
 * The calls mandate-path decisions decided, kept for the retention window (DESIGN 6.16). They are
 * written with their decision (DecisionRepository.record); this port reads and purges them.
 */
export interface DecisionCalls {
  /** The org's kept calls of these decisions recorded at or after `since`, by decision id. */
  callsOf(orgId: string, decisionIds: readonly string[], since: Date): Promise<Map<string, DecisionCall>>;
  /** Deletes every org's kept calls recorded before `cutoff`; how many. */
  purgeBefore(cutoff: Date): Promise<number>;
}
