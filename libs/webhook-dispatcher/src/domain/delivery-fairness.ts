/**
 * Fairness between webhooks when deliveries are leased: a webhook gets at most this many attempts
 * under way (those already leased count), so a slow receiver with a backlog cannot take every
 * worker slot.
 */
export const MAX_LEASED_PER_WEBHOOK = 64;

/** What one leasing round may take; the store only executes it. */
export interface LeasePlan {
  /** Deliveries leased this round, at most. */
  limit: number;
  /** Attempts under way per webhook, at most (already leased ones count). */
  perWebhookCap: number;
  /** Oldest due deliveries ranked for the round: a large backlog costs a bounded scan. */
  candidates: number;
}

export function leasePlan(limit: number): LeasePlan {
  return { limit, perWebhookCap: MAX_LEASED_PER_WEBHOOK, candidates: limit * 3 };
}
