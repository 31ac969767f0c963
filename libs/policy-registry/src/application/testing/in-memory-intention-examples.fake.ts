import type { Intention } from '../../domain/intention';
import type { IntentionExample, TeachTarget } from '../../domain/intention-example';
import type { PageRequest } from '../paging';
import type { IntentionExampleEvents, IntentionExampleRepository } from '../ports/intention-example.repository.port';
import { isAfter, newestFirst, type InMemoryIntentionRepository } from './in-memory-repositories.fake';

/**
 * The examples port in memory, over the intentions fake: it shares that fake's rows, org counters
 * and outbox, as the Prisma adapter shares the tables, the counter row and the outbox.
 */
export class InMemoryIntentionExampleRepository implements IntentionExampleRepository {
  constructor(readonly intentions: InMemoryIntentionRepository) {}

  private get rows(): Map<string, IntentionExample> {
    return this.intentions.examples;
  }

  private countOf(intentionId: string): number {
    return [...this.rows.values()].filter((e) => e.intentionId === intentionId).length;
  }

  private store(examples: IntentionExample[], events: IntentionExampleEvents, removed = false): void {
    for (const e of examples) {
      if (removed) this.rows.delete(e.id);
      else this.rows.set(e.id, structuredClone(e));
      this.intentions.outbox.push(...events(e, this.intentions.versions.bump(e.orgId)));
    }
  }

  async add(orgId: string, intentionId: string, build: (intention: Intention, count: number) => IntentionExample, events: IntentionExampleEvents) {
    const intention = await this.intentions.findById(orgId, intentionId);
    if (!intention) return null;
    const example = build(intention, this.countOf(intentionId));
    this.store([example], events);
    return structuredClone(example);
  }

  async list(orgId: string, intentionId: string, page: PageRequest): Promise<IntentionExample[]> {
    return [...this.rows.values()]
      .filter((e) => e.orgId === orgId && e.intentionId === intentionId && isAfter(e, page.after))
      .sort(newestFirst)
      .slice(0, page.limit)
      .map((e) => structuredClone(e));
  }

  async remove(orgId: string, intentionId: string, exampleId: string, events: IntentionExampleEvents) {
    const example = this.rows.get(exampleId);
    if (!example || example.orgId !== orgId || example.intentionId !== intentionId) return null;
    this.store([example], events, true);
    return structuredClone(example);
  }

  async teach(
    orgId: string,
    approvalId: string,
    labels: readonly string[],
    build: (targets: ReadonlyMap<string, TeachTarget>) => IntentionExample[],
    events: IntentionExampleEvents,
  ) {
    const taught = this.taughtFrom(orgId, approvalId);
    if (taught.length > 0) return { examples: taught, created: false };
    const targets = new Map<string, TeachTarget>();
    for (const i of this.intentions.rows.values()) {
      if (i.orgId === orgId && labels.includes(i.label)) targets.set(i.label, { intention: structuredClone(i), count: this.countOf(i.id) });
    }
    const examples = build(targets);
    this.store(examples, events);
    return { examples: examples.map((e) => structuredClone(e)), created: true };
  }

  async forgetTaught(orgId: string, approvalId: string, events: IntentionExampleEvents): Promise<IntentionExample[]> {
    const taught = this.taughtFrom(orgId, approvalId);
    this.store(taught, events, true);
    return taught;
  }

  private taughtFrom(orgId: string, approvalId: string): IntentionExample[] {
    return [...this.rows.values()]
      .filter((e) => e.orgId === orgId && e.approvalId === approvalId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((e) => structuredClone(e));
  }
}
