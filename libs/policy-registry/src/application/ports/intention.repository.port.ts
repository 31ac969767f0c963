import type { EventEnvelope } from '@igw/contracts';
import type { Intention, IntentionStatus } from '../../domain/intention';
import type { IntentionExample } from '../../domain/intention-example';
import type { PageRequest } from '../paging';

export const INTENTION_REPOSITORY = Symbol('INTENTION_REPOSITORY');

/**
 * Builds the events of a committed change from the saved record and the org's new intentions
 * counter (`org_version`); they are stored in the outbox in the same transaction.
 */
export type IntentionEvents = (saved: Intention, orgVersion: number) => EventEnvelope[];

/** Every read and write is scoped to one org: another org's id is simply not found. */
export interface IntentionRepository {
  /** Inserts a new intention. Throws 409 `label_conflict` when the org already uses the label. */
  create(intention: Intention, events: IntentionEvents): Promise<Intention>;
  findById(orgId: string, id: string): Promise<Intention | null>;
  /** Newest first (created_at desc, id desc), at most `page.limit` rows after `page.after`. */
  list(orgId: string, filter: { status?: IntentionStatus }, page: PageRequest): Promise<Intention[]>;
  /**
   * Applies `change` to the current state under a row lock. `change` returns the new state, or
   * null when there is nothing to do (no write, no event); it may throw to refuse. Returns null
   * when the intention does not exist in this org.
   */
  update(
    orgId: string,
    id: string,
    change: (current: Intention) => Intention | null,
    events: IntentionEvents,
  ): Promise<{ intention: Intention; changed: boolean } | null>;
  /**
   * The org's intentions counter, all its active intentions and their examples, read in one
   * consistent snapshot: `intentions` is exactly the active set after change number `version`
   * (0 if none yet), and `examples` exactly theirs. Both newest first (created_at desc, id desc).
   */
  activeSnapshot(orgId: string): Promise<{ version: number; intentions: Intention[]; examples: IntentionExample[] }>;
  /** Every org whose intentions counter is above 0 (readers load these at start). */
  orgIds(): Promise<string[]>;
}
