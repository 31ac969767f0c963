import type { EventEnvelope } from '@igw/contracts';
import { expire, isConsumable, consume, statusAt, type Approval, type ApprovalStatus } from '../../domain/approval';
import type { PageKey, PageRequest } from '../paging';
import type { ApprovalEvents, ApprovalRepository } from '../ports/approval.repository.port';

/** Test double of the repository port: same contract, kept in memory, with an outbox to inspect. */
const newestFirst = (a: PageKey, b: PageKey) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const isAfter = (row: PageKey, key: PageKey | null) => !key || newestFirst(row, key) > 0;

export class InMemoryApprovalRepository implements ApprovalRepository {
  readonly rows = new Map<string, Approval>();
  readonly outbox: EventEnvelope[] = [];
  /** Running reservations for teaching, by request id. */
  readonly reservations = new Map<string, { keyId: string; until: Date }>();

  async create(approval: Approval, events: ApprovalEvents): Promise<{ approval: Approval; created: boolean }> {
    const pending = [...this.rows.values()]
      .filter((r) => r.orgId === approval.orgId && r.fingerprint === approval.fingerprint && statusAt(r, approval.createdAt) === 'pending')
      .sort(newestFirst)[0];
    if (pending) return { approval: structuredClone(pending), created: false };
    const staged = events(approval);
    this.rows.set(approval.id, structuredClone(approval));
    this.outbox.push(...staged);
    return { approval: structuredClone(approval), created: true };
  }

  async findById(orgId: string, id: string): Promise<Approval | null> {
    const row = this.rows.get(id);
    return row && row.orgId === orgId ? structuredClone(row) : null;
  }

  async backlog(orgId: string, now: Date): Promise<{ pending: number; oldestCreatedAt: Date | null }> {
    const pending = [...this.rows.values()].filter((r) => r.orgId === orgId && statusAt(r, now) === 'pending');
    const oldest = pending.reduce<Date | null>((min, r) => (min === null || r.createdAt < min ? r.createdAt : min), null);
    return { pending: pending.length, oldestCreatedAt: oldest };
  }

  async list(orgId: string, filter: { status?: ApprovalStatus }, page: PageRequest, now: Date): Promise<Approval[]> {
    return [...this.rows.values()]
      .filter((r) => r.orgId === orgId && (!filter.status || statusAt(r, now) === filter.status) && isAfter(r, page.after))
      .sort(newestFirst)
      .slice(0, page.limit)
      .map((r) => structuredClone(r));
  }

  async update(orgId: string, id: string, change: (current: Approval) => Approval, events: ApprovalEvents): Promise<Approval | null> {
    const current = await this.findById(orgId, id);
    if (!current) return null;
    const next = change(current);
    const staged = events(next);
    this.reservations.delete(id);
    this.rows.set(id, structuredClone(next));
    this.outbox.push(...staged);
    return structuredClone(next);
  }

  async reserveForTeaching(orgId: string, id: string, keyId: string, now: Date, until: Date): Promise<boolean> {
    const row = this.rows.get(id);
    const running = this.reservations.get(id);
    if (!row || row.orgId !== orgId || statusAt(row, now) !== 'pending' || (running && running.until.getTime() > now.getTime())) return false;
    this.reservations.set(id, { keyId, until });
    return true;
  }

  async releaseTeaching(orgId: string, id: string, keyId: string): Promise<void> {
    if (this.rows.get(id)?.orgId === orgId && this.reservations.get(id)?.keyId === keyId) this.reservations.delete(id);
  }

  async consume(orgId: string, fingerprint: string, now: Date): Promise<Approval | null> {
    const oldest = [...this.rows.values()]
      .filter((r) => r.orgId === orgId && r.fingerprint === fingerprint && isConsumable(r, now))
      .sort((a, b) => -newestFirst(a, b))[0];
    if (!oldest) return null;
    const used = consume(oldest, now);
    this.rows.set(used.id, structuredClone(used));
    return structuredClone(used);
  }

  async expireDue(now: Date, limit: number, events: ApprovalEvents): Promise<Approval[]> {
    const done: Approval[] = [];
    for (const row of this.rows.values()) {
      if (done.length >= limit) break;
      const next = expire(row, now);
      if (!next) continue;
      this.rows.set(next.id, structuredClone(next));
      this.outbox.push(...events(next));
      done.push(structuredClone(next));
    }
    return done;
  }
}
