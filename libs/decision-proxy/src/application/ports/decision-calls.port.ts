import type { PageKey } from '@igw/kernel';
import type { DecisionCall, KeptDecision } from '../../domain';

export const DECISION_CALLS = Symbol('DECISION_CALLS');

/**
 * The calls mandate-path decisions decided, kept for the retention window (DESIGN 6.16). They are
 * written with their decision (DecisionRepository.record); this port reads and purges them.
 */
export interface DecisionCalls {
  /** The org's kept calls of these decisions recorded at or after `since`, by decision id. */
  callsOf(orgId: string, decisionIds: readonly string[], since: Date): Promise<Map<string, DecisionCall>>;
  /**
   * One keyset page of the org's kept calls recorded in `[since, until)` after `after`, oldest
   * first, each with what its decision record says (what-if replay of a card).
   */
  page(orgId: string, query: { since: Date; until: Date; after: PageKey | null; limit: number }): Promise<KeptDecision[]>;
  /** Deletes every org's kept calls recorded before `cutoff`; how many. */
  purgeBefore(cutoff: Date): Promise<number>;
}
