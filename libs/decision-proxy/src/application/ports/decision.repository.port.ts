import type { PageKey } from '@igw/kernel';
import type { DecisionListQuery, DecisionRecord, ReviewStatus } from '../../domain';

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
   * Stores the decision with its `decision.made` outbox row before it resolves (group commit: the
   * decisions of one moment share a transaction), so an answered decision is in the store.
   * Rejects with DependencyUnavailableError when the store cannot take it (the call fails closed
   * with 503), or RecordRefusedError when the store refused this record (set aside as poison).
   * Idempotent on `decision_id`: a decision stored twice is one row with one event.
   */
  record(record: DecisionRecord): Promise<void>;
  /** The org's decisions, newest first, filtered (`limit + 1` rows: the caller pages). */
  listDecisions(orgId: string, query: DecisionListQuery): Promise<DecisionRecord[]>;
  /** The review queue (deferred decisions), newest first. */
  listReviews(orgId: string, query: ReviewPageQuery): Promise<DecisionRecord[]>;
  findByDecisionId(orgId: string, decisionId: string): Promise<DecisionRecord | null>;
  /** Moves a pending review to accepted/rejected under a row lock (two operators: one wins). */
  resolveReview(
    orgId: string,
    reviewId: string,
    change: { status: Exclude<ReviewStatus, 'pending'>; keyId: string; note: string | null; at: Date },
  ): Promise<ResolveReviewResult>;
}
