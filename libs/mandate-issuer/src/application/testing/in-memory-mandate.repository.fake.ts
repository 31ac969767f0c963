import type { EventEnvelope } from '@igw/contracts';
import type { Mandate } from '../../domain/mandate';
import type { MandateEvents, MandateRepository, RevocationSnapshot, StoredMandate } from '../ports/mandate.repository.port';

/**
 * Test double of the mandate repository port: same contract, kept in memory, with an outbox to
 * inspect. Every method does its read-change-write without awaiting in between, so it is atomic
 * (as the row lock makes it in PostgreSQL); records are copied in and out, never shared. Numbers
 * revocations per org as the port says (no version board: that is the adapter's job).
 */
export class InMemoryMandateRepository implements MandateRepository {
  /** By cred_id (unique across orgs, as the primary key is). */
  readonly rows = new Map<string, StoredMandate>();
  readonly outbox: EventEnvelope[] = [];
  /** The next call of each operation throws this instead (a database outage), then the slot is cleared. */
  readonly failNext: { create?: Error; find?: Error; update?: Error; revocationsSince?: Error } = {};
  /** Each org's revocation counter. */
  readonly revocationVersions = new Map<string, number>();
  /** Each revoked mandate's revocation number, by cred_id. */
  readonly revocationSeqs = new Map<string, number>();

  async create(stored: StoredMandate, events: MandateEvents): Promise<void> {
    this.maybeFail('create');
    const { credId } = stored.mandate;
    if (this.rows.has(credId)) throw new Error(`duplicate cred_id ${credId}`);
    const saved = structuredClone(stored);
    const revocationVersion = saved.mandate.revokedAt !== null ? this.nextRevocation(saved.mandate.orgId) : null;
    const staged = events(structuredClone(saved.mandate), { revocationVersion });
    this.rows.set(credId, saved);
    this.commitRevocation(saved.mandate, revocationVersion);
    this.outbox.push(...staged);
  }

  async find(orgId: string, credId: string): Promise<StoredMandate | null> {
    this.maybeFail('find');
    const row = this.rows.get(credId);
    return row && row.mandate.orgId === orgId ? structuredClone(row) : null;
  }

  async update(orgId: string, credId: string, change: (current: Mandate) => Mandate | null, events: MandateEvents): Promise<Mandate | null> {
    this.maybeFail('update');
    const row = this.rows.get(credId);
    if (!row || row.mandate.orgId !== orgId) return null;
    // A throwing `change` refuses: nothing written.
    const next = change(structuredClone(row.mandate));
    if (next === null) return structuredClone(row.mandate);
    if (next.credId !== credId || next.orgId !== orgId) throw new RangeError(`a change may not move mandate ${credId} to another cred_id or org`);
    const saved = structuredClone(next);
    const revocationVersion = row.mandate.revokedAt === null && saved.revokedAt !== null ? this.nextRevocation(orgId) : null;
    const staged = events(structuredClone(saved), { revocationVersion });
    // The sealed broker handle is not a column a change writes.
    this.rows.set(credId, { mandate: saved, brokerRevocationSealed: row.brokerRevocationSealed });
    this.commitRevocation(saved, revocationVersion);
    this.outbox.push(...staged);
    return structuredClone(saved);
  }

  async revocationsSince(orgId: string, afterVersion: number, expiringAfter: Date): Promise<RevocationSnapshot> {
    this.maybeFail('revocationsSince');
    const revoked = [...this.rows.values()]
      .map((r) => ({ m: r.mandate, seq: this.revocationSeqs.get(r.mandate.credId) }))
      .flatMap(({ m, seq }) =>
        seq !== undefined && m.orgId === orgId && seq > afterVersion && m.expiresAt.getTime() > expiringAfter.getTime() ? [{ m, seq }] : [],
      )
      .sort((a, b) => a.seq - b.seq)
      .map(({ m }) => ({ credId: m.credId, expiresAt: new Date(m.expiresAt) }));
    return { version: this.revocationVersions.get(orgId) ?? 0, revoked };
  }

  async revocationOrgIds(): Promise<string[]> {
    return [...this.revocationVersions.entries()]
      .filter(([, v]) => v > 0)
      .map(([org]) => org)
      .sort();
  }

  /** The stored domain record of `credId` (any org), or undefined. */
  mandate(credId: string): Mandate | undefined {
    const row = this.rows.get(credId);
    return row ? structuredClone(row.mandate) : undefined;
  }

  /** The org's next revocation number; counted only once the write commits (events built without throwing). */
  private nextRevocation(orgId: string): number {
    return (this.revocationVersions.get(orgId) ?? 0) + 1;
  }

  private commitRevocation(m: Mandate, revocationVersion: number | null): void {
    if (revocationVersion === null) return;
    this.revocationVersions.set(m.orgId, revocationVersion);
    this.revocationSeqs.set(m.credId, revocationVersion);
  }

  private maybeFail(op: keyof InMemoryMandateRepository['failNext']): void {
    const err = this.failNext[op];
    if (!err) return;
    delete this.failNext[op];
    throw err;
  }
}
