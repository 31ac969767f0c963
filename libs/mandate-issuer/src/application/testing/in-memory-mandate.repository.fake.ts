import type { EventEnvelope } from '@igw/contracts';
import type { Mandate } from '../../domain/mandate';
import type { MandateEvents, MandateRepository, StoredMandate } from '../ports/mandate.repository.port';

/**
 * Test double of the mandate repository port: same contract, kept in memory, with an outbox to
 * inspect. Every method does its read-change-write without awaiting in between, so it is atomic
 * (as the row lock makes it in PostgreSQL); records are copied in and out, never shared.
 */
export class InMemoryMandateRepository implements MandateRepository {
  /** By cred_id (unique across orgs, as the primary key is). */
  readonly rows = new Map<string, StoredMandate>();
  readonly outbox: EventEnvelope[] = [];
  /** The next call of each operation throws this instead (a database outage), then the slot is cleared. */
  readonly failNext: { create?: Error; find?: Error; update?: Error } = {};

  async create(stored: StoredMandate, events: MandateEvents): Promise<void> {
    this.maybeFail('create');
    const { credId } = stored.mandate;
    if (this.rows.has(credId)) throw new Error(`duplicate cred_id ${credId}`);
    const saved = structuredClone(stored);
    const staged = events(structuredClone(saved.mandate));
    this.rows.set(credId, saved);
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
    const staged = events(structuredClone(saved));
    // The sealed broker handle is not a column a change writes.
    this.rows.set(credId, { mandate: saved, brokerRevocationSealed: row.brokerRevocationSealed });
    this.outbox.push(...staged);
    return structuredClone(saved);
  }

  /** The stored domain record of `credId` (any org), or undefined. */
  mandate(credId: string): Mandate | undefined {
    const row = this.rows.get(credId);
    return row ? structuredClone(row.mandate) : undefined;
  }

  private maybeFail(op: keyof InMemoryMandateRepository['failNext']): void {
    const err = this.failNext[op];
    if (!err) return;
    delete this.failNext[op];
    throw err;
  }
}
