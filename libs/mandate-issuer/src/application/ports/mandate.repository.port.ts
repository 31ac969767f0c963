import type { EventEnvelope } from '@igw/contracts';
import type { Mandate } from '../../domain/mandate';

export const MANDATE_REPOSITORY = Symbol('MANDATE_REPOSITORY');

/** What the repository knows of a change besides the saved record, for its events. */
export interface MandateWrite {
  /**
   * When this write revoked the mandate (a transition to revoked, never a repeat): the org's
   * revocation counter after it, which is also the mandate's revocation number. Null otherwise.
   */
  revocationVersion: number | null;
}

/** Builds the events of a committed change from the saved record; stored in the outbox in the same transaction. */
export type MandateEvents = (saved: Mandate, write: MandateWrite) => EventEnvelope[];

/** A mandate as stored: the domain record plus the sealed broker revocation handle. */
export interface StoredMandate {
  mandate: Mandate;
  /** KeyEncryption-sealed revocation handle of the broker credential; null when none. */
  brokerRevocationSealed: string | null;
}

/** One revoked mandate as a verifier needs it. */
export interface RevokedCredential {
  credId: string;
  expiresAt: Date;
}

/** An org's revocations after one version of its counter, from one consistent snapshot. */
export interface RevocationSnapshot {
  /** The org's revocation counter (0 when it never revoked a mandate). */
  version: number;
  /** Mandates of the org numbered above the asked version, in revocation order. */
  revoked: RevokedCredential[];
}

/**
 * Every read and write is scoped to one org: another org's cred_id is simply not found. Times
 * come from the caller's clock.
 *
 * Revocations are numbered per org: every transition of a mandate to revoked (in `create` or
 * `update`) bumps the org's revocation counter in the same transaction and stores the new value
 * on the mandate; after the commit, before the method returns, the version board's
 * `revocations:{org}` is advanced to it. A repeat revocation (already revoked) bumps nothing.
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
  /**
   * The org's revocation counter and its mandates numbered above `afterVersion` whose `expiresAt`
   * is later than `expiringAfter`, both read from one snapshot (REPEATABLE READ), so the list is
   * exactly the revocations up to `version` that are still of interest.
   */
  revocationsSince(orgId: string, afterVersion: number, expiringAfter: Date): Promise<RevocationSnapshot>;
  /** Every org whose revocation counter is above 0 (verifiers load these at start). */
  revocationOrgIds(): Promise<string[]>;
}
