import { Injectable } from '@nestjs/common';
import { rethrowUnavailable } from '@igw/persistence';
import { intentionsKey } from '@igw/events';
import type { Intention } from '../../domain/intention';
import type { IntentionExample, TeachTarget } from '../../domain/intention-example';
import type { PageRequest } from '../../application/paging';
import type { IntentionExampleEvents, IntentionExampleRepository } from '../../application/ports/intention-example.repository.port';
import { exampleRow, toIntention, toIntentionExample } from './intention-rows';
import { bumpOrgVersion, isUniqueViolation, type RegistryTx } from './registry-prisma.client';
import { RegistryRepository } from './registry.repository-base';

/**
 * Examples of intentions. Additions lock the intention rows they belong to (so a count checked
 * against the limit holds until commit, and an archive cannot slip in between), removals the
 * example rows they remove (so none is removed twice). Each write bumps the org's intentions
 * counter once per example, each with its own event in the outbox: readers of the active
 * intentions move one version at a time, examples included.
 */
@Injectable()
export class PrismaIntentionExampleRepository extends RegistryRepository implements IntentionExampleRepository {
  private readonly intentions = `"${this.schema}"."intentions"`;
  private readonly examplesTable = `"${this.schema}"."intention_examples"`;

  async add(orgId: string, intentionId: string, build: (intention: Intention, count: number) => IntentionExample, events: IntentionExampleEvents) {
    const outcome = await this.prisma
      .$transaction(async (tx) => {
        const [target] = await this.lockTargets(tx, orgId, { id: intentionId });
        if (!target) return null;
        const example = build(target.intention, target.count);
        await tx.intentionExample.create({ data: exampleRow(example) });
        return { example, orgVersion: await this.emit(tx, orgId, [example], events) };
      })
      .catch(rethrowUnavailable);
    if (!outcome) return null;
    await this.committed(intentionsKey(orgId), outcome.orgVersion);
    return outcome.example;
  }

  async list(orgId: string, intentionId: string, page: PageRequest): Promise<IntentionExample[]> {
    const after = page.after;
    const rows = await this.prisma.intentionExample
      .findMany({
        where: {
          orgId,
          intentionId,
          ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: page.limit,
      })
      .catch(rethrowUnavailable);
    return rows.map(toIntentionExample);
  }

  async remove(orgId: string, intentionId: string, exampleId: string, events: IntentionExampleEvents) {
    const outcome = await this.prisma
      .$transaction(async (tx) => {
        const [example] = await this.lockExamples(tx, orgId, `"id" = $2 AND "intention_id" = $3`, exampleId, intentionId);
        if (!example) return null;
        await tx.intentionExample.delete({ where: { id: example.id } });
        return { example, orgVersion: await this.emit(tx, orgId, [example], events) };
      })
      .catch(rethrowUnavailable);
    if (!outcome) return null;
    await this.committed(intentionsKey(orgId), outcome.orgVersion);
    return outcome.example;
  }

  async teach(
    orgId: string,
    approvalId: string,
    labels: readonly string[],
    build: (targets: ReadonlyMap<string, TeachTarget>) => IntentionExample[],
    events: IntentionExampleEvents,
  ) {
    const attempt = () =>
      this.prisma.$transaction(async (tx) => {
        const stored = await this.taughtFrom(tx, orgId, approvalId);
        if (stored.length > 0) return { examples: stored, created: false, orgVersion: 0 };
        const targets = await this.lockTargets(tx, orgId, { labels: [...labels] });
        const examples = build(new Map(targets.map((t) => [t.intention.label, t])));
        await tx.intentionExample.createMany({ data: examples.map(exampleRow) });
        return { examples, created: true, orgVersion: await this.emit(tx, orgId, examples, events) };
      });
    // The same approval taught twice at once: the loser's insert collides, and its retry answers the winner's examples.
    const { orgVersion, ...result } = await attempt()
      .catch((err: unknown) => (isUniqueViolation(err) ? attempt() : Promise.reject(err)))
      .catch(rethrowUnavailable);
    if (result.created && orgVersion > 0) await this.committed(intentionsKey(orgId), orgVersion);
    return result;
  }

  async forgetTaught(orgId: string, approvalId: string, events: IntentionExampleEvents): Promise<IntentionExample[]> {
    const outcome = await this.prisma
      .$transaction(async (tx) => {
        const taught = await this.lockExamples(tx, orgId, `"approval_id" = $2`, approvalId);
        if (taught.length === 0) return { examples: taught, orgVersion: 0 };
        await tx.intentionExample.deleteMany({ where: { orgId, id: { in: taught.map((e) => e.id) } } });
        return { examples: taught, orgVersion: await this.emit(tx, orgId, taught, events) };
      })
      .catch(rethrowUnavailable);
    if (outcome.orgVersion > 0) await this.committed(intentionsKey(orgId), outcome.orgVersion);
    return outcome.examples;
  }

  /**
   * The org's examples matching `where` (SQL over $2…), locked in id order: a concurrent removal of
   * the same rows waits, then finds them gone, so no example is removed (or announced) twice.
   */
  private async lockExamples(tx: RegistryTx, orgId: string, where: string, ...values: string[]): Promise<IntentionExample[]> {
    const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM ${this.examplesTable} WHERE "org_id" = $1 AND ${where} ORDER BY "id" FOR UPDATE`,
      orgId,
      ...values,
    );
    if (locked.length === 0) return [];
    const rows = await tx.intentionExample.findMany({ where: { orgId, id: { in: locked.map((r) => r.id) } }, orderBy: { id: 'asc' } });
    return rows.map(toIntentionExample);
  }

  /** The examples taught from `approvalId`, in the order they were stored (ids are time-ordered). */
  private async taughtFrom(tx: RegistryTx, orgId: string, approvalId: string): Promise<IntentionExample[]> {
    const rows = await tx.intentionExample.findMany({ where: { orgId, approvalId }, orderBy: { id: 'asc' } });
    return rows.map(toIntentionExample);
  }

  /**
   * Locks the org's intentions chosen by id or labels (in id order, so two writers never wait
   * on each other in a cycle) and answers each with its example count.
   */
  private async lockTargets(tx: RegistryTx, orgId: string, which: { id: string } | { labels: string[] }): Promise<TeachTarget[]> {
    const [column, values] = 'id' in which ? ['id', [which.id]] : ['label', which.labels];
    const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM ${this.intentions} WHERE "org_id" = $1 AND "${column}" = ANY($2::text[]) ORDER BY "id" FOR UPDATE`,
      orgId,
      values,
    );
    if (locked.length === 0) return [];
    const ids = locked.map((r) => r.id);
    const rows = await tx.intention.findMany({ where: { orgId, id: { in: ids } } });
    const counts = await tx.intentionExample.groupBy({ by: ['intentionId'], where: { orgId, intentionId: { in: ids } }, _count: { _all: true } });
    const countOf = new Map(counts.map((c) => [c.intentionId, c._count._all]));
    return rows.map((r) => ({ intention: toIntention(r), count: countOf.get(r.id) ?? 0 }));
  }

  /** One counter bump and one set of events per example, in order; answers the last counter value. */
  private async emit(tx: RegistryTx, orgId: string, examples: IntentionExample[], events: IntentionExampleEvents): Promise<number> {
    let orgVersion = 0;
    for (const example of examples) {
      orgVersion = await bumpOrgVersion(tx, this.schema, orgId, 'intentions_version');
      await this.outbox.add(tx, events(example, orgVersion));
    }
    return orgVersion;
  }
}
