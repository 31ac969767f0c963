import type { PageKey } from '@igw/kernel';
import type { DecisionRecord, ReviewStatus } from '../../domain';

export const DECISION_REPOSITORY = Symbol('DECISION_REPOSITORY');

export interface ReviewPageQuery {
  status?: ReviewStatus;
  limit: number;
  after?: PageKey | null;
}

export type ResolveReviewResult = { ok: true; record: DecisionRecord } | { ok: false; reason: 'not_found' | 'already_resolved'; record?: DecisionRecord };

/** Decisions of one org at a time; every read is scoped to the org. */
export interface DecisionRepository {
  /**
   * Stores the decisions and their `decision.made` outbox rows in one transaction. Idempotent:
   * a decision id already stored is skipped (and gets no second event), so a journal replayed
   * after a crash stores each decision once.
   */
  saveAll(records: readonly DecisionRecord[]): Promise<void>;
  /** The review queue (deferred decisions), newest first. */
  listReviews(orgId: string, query: ReviewPageQuery): Promise<DecisionRecord[]>;
  findByDecisionId(orgId: string, decisionId: string): Promise<DecisionRecord | null>;
  /** Moves a pending review to accepted/rejected under a row lock (two operators: one wins). */
  resolveReview(orgId: string, reviewId: string, change: { status: Exclude<ReviewStatus, 'pending'>; keyId: string; note: string | null; at: Date }): Promise<ResolveReviewResult>;
}

export const DECISION_JOURNAL = Symbol('DECISION_JOURNAL');

/**
 * Where a decision is made durable before it is answered, without a database round trip on the
 * decision path: `append` resolves once the record is on stable storage; it reaches the
 * repository (and its event the bus) shortly after. Rejects with DependencyUnavailableError when
 * it cannot promise durability (the call then fails closed with 503).
 */
export interface DecisionJournal {
  append(record: DecisionRecord): Promise<void>;
}
