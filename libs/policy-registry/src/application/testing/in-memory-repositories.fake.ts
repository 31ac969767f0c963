import type { EventEnvelope } from '@igw/contracts';
import type { IntentCard } from '../../domain/intent-card';
import { labelConflict, type Intention, type IntentionStatus } from '../../domain/intention';
import type { IntentionExample } from '../../domain/intention-example';
import type { PageKey, PageRequest } from '../paging';
import type { IntentCardEvents, IntentCardRepository } from '../ports/intent-card.repository.port';
import type { IntentionEvents, IntentionRepository } from '../ports/intention.repository.port';

/** Test doubles of the repository ports: same contract, kept in memory, with an outbox to inspect. */
export const newestFirst = (a: PageKey, b: PageKey) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
export const isAfter = (row: PageKey, key: PageKey | null) => !key || newestFirst(row, key) > 0;

export class OrgCounters {
  private readonly counters = new Map<string, number>();
  bump(orgId: string): number {
    const next = (this.counters.get(orgId) ?? 0) + 1;
    this.counters.set(orgId, next);
    return next;
  }
  current(orgId: string): number {
    return this.counters.get(orgId) ?? 0;
  }
  orgIds(): string[] {
    return [...this.counters.keys()].sort();
  }
}

export class InMemoryIntentionRepository implements IntentionRepository {
  readonly rows = new Map<string, Intention>();
  /** The examples of the intentions, kept here so the active snapshot reads both (InMemoryIntentionExampleRepository writes them). */
  readonly examples = new Map<string, IntentionExample>();
  readonly outbox: EventEnvelope[] = [];
  readonly versions = new OrgCounters();

  async create(intention: Intention, events: IntentionEvents): Promise<Intention> {
    for (const row of this.rows.values()) if (row.orgId === intention.orgId && row.label === intention.label) throw labelConflict(intention.label);
    this.rows.set(intention.id, structuredClone(intention));
    this.outbox.push(...events(intention, this.versions.bump(intention.orgId)));
    return structuredClone(intention);
  }

  async findById(orgId: string, id: string): Promise<Intention | null> {
    const row = this.rows.get(id);
    return row && row.orgId === orgId ? structuredClone(row) : null;
  }

  async list(orgId: string, filter: { status?: IntentionStatus }, page: PageRequest): Promise<Intention[]> {
    return [...this.rows.values()]
      .filter((r) => r.orgId === orgId && (!filter.status || r.status === filter.status) && isAfter(r, page.after))
      .sort(newestFirst)
      .slice(0, page.limit)
      .map((r) => structuredClone(r));
  }

  async update(orgId: string, id: string, change: (current: Intention) => Intention | null, events: IntentionEvents) {
    const current = await this.findById(orgId, id);
    if (!current) return null;
    const next = change(current);
    if (!next) return { intention: current, changed: false };
    this.rows.set(id, structuredClone(next));
    this.outbox.push(...events(next, this.versions.bump(orgId)));
    return { intention: next, changed: true };
  }

  async activeSnapshot(orgId: string) {
    const intentions = [...this.rows.values()].filter((r) => r.orgId === orgId && r.status === 'active').sort(newestFirst);
    // Drafts' examples too (see the Prisma repository): a publish event must find them in the reader.
    const live = new Set([...this.rows.values()].filter((r) => r.orgId === orgId && r.status !== 'archived').map((r) => r.id));
    const examples = [...this.examples.values()].filter((e) => e.orgId === orgId && live.has(e.intentionId)).sort(newestFirst);
    return { version: this.versions.current(orgId), intentions: intentions.map((r) => structuredClone(r)), examples: examples.map((e) => structuredClone(e)) };
  }

  async orgIds(): Promise<string[]> {
    return this.versions.orgIds();
  }
}

export class InMemoryIntentCardRepository implements IntentCardRepository {
  readonly rows = new Map<string, IntentCard>();
  readonly removed = new Map<string, number>();
  readonly outbox: EventEnvelope[] = [];
  readonly versions = new OrgCounters();
  private key = (orgId: string, id: string) => `${orgId}\u0000${id}`;

  async install(orgId: string, id: string, build: (existing: IntentCard | null, removedVersion: number) => IntentCard, events: IntentCardEvents) {
    const existing = await this.findById(orgId, id);
    const card = build(existing, existing ? 0 : (this.removed.get(this.key(orgId, id)) ?? 0));
    this.rows.set(this.key(orgId, id), structuredClone(card));
    this.outbox.push(...events(card, this.versions.bump(orgId)));
    return { card: structuredClone(card), created: existing === null };
  }

  async findById(orgId: string, id: string): Promise<IntentCard | null> {
    const row = this.rows.get(this.key(orgId, id));
    return row ? structuredClone(row) : null;
  }

  async list(orgId: string, page: PageRequest): Promise<IntentCard[]> {
    return [...this.rows.values()]
      .filter((r) => r.orgId === orgId && isAfter(r, page.after))
      .sort(newestFirst)
      .slice(0, page.limit)
      .map((r) => structuredClone(r));
  }

  async delete(orgId: string, id: string, events: IntentCardEvents): Promise<IntentCard | null> {
    const existing = await this.findById(orgId, id);
    if (!existing) return null;
    this.rows.delete(this.key(orgId, id));
    this.removed.set(this.key(orgId, id), existing.version + 1);
    this.outbox.push(...events(existing, this.versions.bump(orgId)));
    return existing;
  }

  async snapshot(orgId: string) {
    const cards = [...this.rows.values()].filter((r) => r.orgId === orgId).sort(newestFirst);
    return { version: this.versions.current(orgId), cards: cards.map((r) => structuredClone(r)) };
  }

  async orgIds(): Promise<string[]> {
    return this.versions.orgIds();
  }
}
