import { Injectable } from '@nestjs/common';
import { rethrowUnavailable } from '@igw/persistence';
import { intentionsKey } from '@igw/events';
import { labelConflict, type Intention, type IntentionStatus } from '../../domain/intention';
import type { PageRequest } from '../../application/paging';
import type { IntentionEvents, IntentionRepository } from '../../application/ports/intention.repository.port';
import { mutableFields, toIntention, toIntentionExample } from './intention-rows';
import { bumpOrgVersion, isUniqueViolation } from './registry-prisma.client';
import { RegistryRepository } from './registry.repository-base';

@Injectable()
export class PrismaIntentionRepository extends RegistryRepository implements IntentionRepository {
  private readonly table = `"${this.schema}"."intentions"`;

  async create(intention: Intention, events: IntentionEvents): Promise<Intention> {
    const { saved, orgVersion } = await this.prisma
      .$transaction(async (tx) => {
        const row = await tx.intention.create({
          data: { id: intention.id, orgId: intention.orgId, createdAt: intention.createdAt, ...mutableFields(intention) },
        });
        const saved = toIntention(row);
        const orgVersion = await bumpOrgVersion(tx, this.schema, saved.orgId, 'intentions_version');
        await this.outbox.add(tx, events(saved, orgVersion));
        return { saved, orgVersion };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw labelConflict(intention.label);
        return rethrowUnavailable(err);
      });
    await this.committed(intentionsKey(saved.orgId), orgVersion);
    return saved;
  }

  async findById(orgId: string, id: string): Promise<Intention | null> {
    const row = await this.prisma.intention.findFirst({ where: { id, orgId } }).catch(rethrowUnavailable);
    return row ? toIntention(row) : null;
  }

  async list(orgId: string, filter: { status?: IntentionStatus }, page: PageRequest): Promise<Intention[]> {
    const after = page.after;
    const rows = await this.prisma.intention
      .findMany({
        where: {
          orgId,
          ...(filter.status ? { status: filter.status } : {}),
          ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: page.limit,
      })
      .catch(rethrowUnavailable);
    return rows.map(toIntention);
  }

  async update(orgId: string, id: string, change: (current: Intention) => Intention | null, events: IntentionEvents) {
    let orgVersion: number | undefined;
    let label = '';
    const result = await this.prisma
      .$transaction(async (tx) => {
        // Concurrent transitions of one intention queue here and each sees the previous result.
        const locked = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM ${this.table} WHERE "org_id" = $1 AND "id" = $2 FOR UPDATE`, orgId, id);
        if (locked.length === 0) return null;
        const current = toIntention(await tx.intention.findUniqueOrThrow({ where: { id } }));
        const next = change(current);
        if (!next) return { intention: current, changed: false };
        label = next.label;
        const saved = toIntention(await tx.intention.update({ where: { id }, data: mutableFields(next) }));
        const version = await bumpOrgVersion(tx, this.schema, orgId, 'intentions_version');
        await this.outbox.add(tx, events(saved, version));
        orgVersion = version;
        return { intention: saved, changed: true };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw labelConflict(label);
        return rethrowUnavailable(err);
      });
    if (orgVersion !== undefined) {
      await this.committed(intentionsKey(orgId), orgVersion);
    }
    return result;
  }

  async activeSnapshot(orgId: string) {
    return this.consistentRead(async (tx) => {
      const counter = await tx.orgVersion.findUnique({ where: { orgId }, select: { intentionsVersion: true } });
      const rows = await tx.intention.findMany({ where: { orgId, status: 'active' }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      // Same snapshot: the examples of every intention that is or may become active (drafts too:
      // a reader that loaded this snapshot and then applies a publish event must already hold the
      // draft's examples — a missing negative example would widen what the intention matches).
      const drafts = await tx.intention.findMany({ where: { orgId, status: 'draft' }, select: { id: true } });
      const live = [...rows.map((r) => r.id), ...drafts.map((d) => d.id)];
      const examples = live.length
        ? await tx.intentionExample.findMany({ where: { orgId, intentionId: { in: live } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })
        : [];
      return { version: counter?.intentionsVersion ?? 0, intentions: rows.map(toIntention), examples: examples.map(toIntentionExample) };
    });
  }

  orgIds(): Promise<string[]> {
    return this.orgIdsWith('intentionsVersion');
  }
}
