import type { EventEnvelope } from '@igw/contracts';
import type { Approval, ApprovalStatus } from '../../domain/approval';
import type { PageRequest } from '../paging';

export const APPROVAL_REPOSITORY = Symbol('APPROVAL_REPOSITORY');

/** Builds the events of a committed change from the saved record; stored in the outbox in the same transaction. */
export type ApprovalEvents = (saved: Approval) => EventEnvelope[];

/**
 * Every org-facing read and write is scoped to one org: another org's id is simply not found.
 * Times come from the caller (the use case's clock), never from the database, so "expired" means
 * the same thing everywhere.
 */
export interface ApprovalRepository {
  /**
   * Inserts a new request and its events in one transaction; committed when it resolves. When
   * the org already has a request for the same fingerprint that is pending at `approval.createdAt`,
   * nothing is written and that request is returned instead (`created: false`): an agent retrying
   * a held call must not fill the queue with copies. Concurrent calls for one fingerprint queue.
   */
  create(approval: Approval, events: ApprovalEvents): Promise<{ approval: Approval; created: boolean }>;
  findById(orgId: string, id: string): Promise<Approval | null>;
  /**
   * Newest first (created_at desc, id desc), at most `page.limit` rows after `page.after`. The
   * status filter uses the status as seen at `now`: `pending` excludes overdue requests and
   * `expired` includes them.
   */
  list(orgId: string, filter: { status?: ApprovalStatus }, page: PageRequest, now: Date): Promise<Approval[]>;
  /** The requests pending at `now` (not past their deadline): how many, and when the oldest was created. */
  backlog(orgId: string, now: Date): Promise<{ pending: number; oldestCreatedAt: Date | null }>;
  /**
   * Applies `change` to the current state under a row lock, so concurrent changes of one request
   * queue and each sees the previous result. `change` returns the new state or throws to refuse
   * (nothing written). Returns null when the request does not exist in this org.
   */
  update(orgId: string, id: string, change: (current: Approval) => Approval, events: ApprovalEvents): Promise<Approval | null>;
  /**
   * Reserves a request for one decision that teaches (`remember`, DESIGN 6.15) until `until`:
   * true when it is pending at `now` and no other reservation runs at `now`; false otherwise
   * (nothing written). Of concurrent callers at most one gets it, so a decision that lost never
   * forgets what the winner taught (the registry keys lessons by approval). A decision (`update`)
   * ends the reservation; so does `releaseTeaching`.
   */
  reserveForTeaching(orgId: string, id: string, keyId: string, now: Date, until: Date): Promise<boolean>;
  /** Ends `keyId`'s reservation of the request (its teaching failed), so another decision may teach at once. */
  releaseTeaching(orgId: string, id: string, keyId: string): Promise<void>;
  /**
   * Atomically marks the oldest approved, unused request of this call with `expires_at > now`
   * as used (`consumed_at = now`) and returns it; null when there is none. Of concurrent
   * consumers exactly one gets a given request.
   */
  consume(orgId: string, fingerprint: string, now: Date): Promise<Approval | null>;
  /**
   * Stores `expired` on at most `limit` pending requests (any org) whose deadline is at or before
   * `now`, with their events, in one transaction; returns them. A request is expired once, also
   * with several sweepers running.
   */
  expireDue(now: Date, limit: number, events: ApprovalEvents): Promise<Approval[]>;
}
