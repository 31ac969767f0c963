import type { EventEnvelope } from '@igw/contracts';
import type { IntentCard } from '../../domain/intent-card';
import type { PageRequest } from '../paging';

export const INTENT_CARD_REPOSITORY = Symbol('INTENT_CARD_REPOSITORY');

/** Events of a committed card change, given the card and the org's new cards counter. */
export type IntentCardEvents = (card: IntentCard, orgVersion: number) => EventEnvelope[];

/** Card ids are unique per org; every read and write is scoped to one org. */
export interface IntentCardRepository {
  /**
   * Creates or replaces the card `id` of `orgId` atomically: `build` gets the current card (or
   * null) under a lock, and the version its removal had when the id was removed before (else 0),
   * and returns what to store.
   */
  install(
    orgId: string,
    id: string,
    build: (existing: IntentCard | null, removedVersion: number) => IntentCard,
    events: IntentCardEvents,
  ): Promise<{ card: IntentCard; created: boolean }>;
  findById(orgId: string, id: string): Promise<IntentCard | null>;
  /** Newest first (created_at desc, id desc), at most `page.limit` rows after `page.after`. */
  list(orgId: string, page: PageRequest): Promise<IntentCard[]>;
  /**
   * Removes the card and remembers the removal's version (the card's + 1) for a later install of
   * the id; the events get the removed card. null when it does not exist.
   */
  delete(orgId: string, id: string, events: IntentCardEvents): Promise<IntentCard | null>;
  /**
   * The org's cards counter and all its installed cards, read in one consistent snapshot: `cards`
   * is exactly the installed set after change number `version` (0 if none yet). Newest first
   * (created_at desc, id desc).
   */
  snapshot(orgId: string): Promise<{ version: number; cards: IntentCard[] }>;
  /** Every org whose cards counter is above 0 (readers load these at start). */
  orgIds(): Promise<string[]>;
}
