import type { EventEnvelope } from '@igw/contracts';
import type { Mandate } from '../../domain/mandate';

export const MANDATE_REPOSITORY = Symbol('MANDATE_REPOSITORY');

/** Builds the events of a committed change from the saved record; stored in the outbox in the same transaction. */
export type MandateEvents = (saved: Mandate) => EventEnvelope[];

/** A mandate as stored: the domain record plus the sealed broker revocation handle. */
export interface StoredMandate {
  mandate: Mandate;
  /** KeyEncryption-sealed revocation handle of the broker credential; null when none. */
  brokerRevocationSealed: string | null;
}

/**
 * Every read and write is scoped to one org: another org's cred_id is simply not found. Times
 * come from the caller's clock.
 */
export interface MandateRepository {
  /** Inserts the mandate and its events in one transaction; committed when it resolves. */
  create(stored: StoredMandate, events: MandateEvents): Promise<void>;
  find(orgId: string, credId: string): Promise<StoredMandate | null>;
  /**
   * Applies `change` under a row lock, so concurrent refreshes / revokes of one mandate queue and
   * each sees the previous result. `change` returns the new record (or null: nothing to write, no
   * events) or throws to refuse. Returns the record after the change — the current record, unchanged,
   * when `change` returned null — and null only when there is no such mandate in this org.
   */
  update(orgId: string, credId: string, change: (current: Mandate) => Mandate | null, events: MandateEvents): Promise<Mandate | null>;
}
