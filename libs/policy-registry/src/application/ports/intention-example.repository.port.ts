import type { EventEnvelope } from '@igw/contracts';
import type { Intention } from '../../domain/intention';
import type { IntentionExample, TeachTarget } from '../../domain/intention-example';
import type { PageRequest } from '../paging';

export const INTENTION_EXAMPLE_REPOSITORY = Symbol('INTENTION_EXAMPLE_REPOSITORY');

/**
 * Events of one committed example change, given the example and the org's new intentions counter:
 * examples share it with intentions, one number per example, so a reader's model moves one
 * version at a time whatever changed.
 */
export type IntentionExampleEvents = (example: IntentionExample, orgVersion: number) => EventEnvelope[];

/** Every read and write is scoped to one org: another org's intention or example is not found. */
export interface IntentionExampleRepository {
  /**
   * Stores what `build` makes of the intention (under its row lock, so the count holds until
   * commit) and how many examples it holds; `build` may throw to refuse. null when the intention
   * does not exist in this org.
   */
  add(
    orgId: string,
    intentionId: string,
    build: (intention: Intention, count: number) => IntentionExample,
    events: IntentionExampleEvents,
  ): Promise<IntentionExample | null>;
  /** The intention's examples, newest first (created_at desc, id desc), at most `page.limit` after `page.after`. */
  list(orgId: string, intentionId: string, page: PageRequest): Promise<IntentionExample[]>;
  /** Removes one example of the intention; null when there is no such example. */
  remove(orgId: string, intentionId: string, exampleId: string, events: IntentionExampleEvents): Promise<IntentionExample | null>;
  /**
   * Stores every example `build` makes, or none, in one transaction, idempotently on
   * `approvalId`: when examples of it exist already they are answered (`created: false`) and
   * `build` is not called. Otherwise `build` gets the org's intentions named by `labels` (any
   * status; absent labels are missing from the map), locked, with their example counts.
   */
  teach(
    orgId: string,
    approvalId: string,
    labels: readonly string[],
    build: (targets: ReadonlyMap<string, TeachTarget>) => IntentionExample[],
    events: IntentionExampleEvents,
  ): Promise<{ examples: IntentionExample[]; created: boolean }>;
  /** Removes every example taught from `approvalId` and answers them (none: []). */
  forgetTaught(orgId: string, approvalId: string, events: IntentionExampleEvents): Promise<IntentionExample[]>;
}
