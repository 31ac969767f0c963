import { Injectable } from '@nestjs/common';
import { rethrowUnavailable } from '@igw/persistence';
import { cardsKey } from '@igw/events';
import type { CardRule, CardScope, IntentCard } from '../../domain/intent-card';
import type { PageRequest } from '../../application/paging';
import type { IntentCardEvents, IntentCardRepository } from '../../application/ports/intent-card.repository.port';
import type { IntentCard as IntentCardRow } from './generated/client';
import { bumpOrgVersion, isUniqueViolation, type RegistryTx } from './registry-prisma.client';
import { RegistryRepository } from './registry.repository-base';

const toCard = (r: IntentCardRow): IntentCard => ({
  orgId: r.orgId,
  id: r.id,
  name: r.name,
  description: r.description,
  allowedScope: r.allowedScope as unknown as CardScope,
  audiences: r.audiences,
  maxTtlSeconds: r.maxTtlSeconds,
  shadow: r.shadow,
  rules: r.rules as unknown as CardRule[],
  version: r.version,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const contentFields = (c: IntentCard) => ({
  name: c.name,
  description: c.description,
  allowedScope: c.allowedScope as object,
  audiences: c.audiences,
  maxTtlSeconds: c.maxTtlSeconds,
  shadow: c.shadow,
  rules: c.rules as object[],
  version: c.version,
  updatedAt: c.updatedAt,
});

@Injectable()
export class PrismaIntentCardRepository extends RegistryRepository implements IntentCardRepository {
  private readonly table = `"${this.schema}"."intent_cards"`;

  private async lockAndRead(tx: RegistryTx, orgId: string, id: string): Promise<IntentCard | null> {
    const locked = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM ${this.table} WHERE "org_id" = $1 AND "id" = $2 FOR UPDATE`, orgId, id);
    if (locked.length === 0) return null;
    return toCard(await tx.intentCard.findUniqueOrThrow({ where: { orgId_id: { orgId, id } } }));
  }

  async install(orgId: string, id: string, build: (existing: IntentCard | null, removedVersion: number) => IntentCard, events: IntentCardEvents) {
    const attempt = () =>
      this.prisma.$transaction(async (tx) => {
        const existing = await this.lockAndRead(tx, orgId, id);
        const removed = existing ? null : await tx.intentCardRemoval.findUnique({ where: { orgId_id: { orgId, id } } });
        const next = build(existing, removed?.version ?? 0);
        const row = existing
          ? await tx.intentCard.update({ where: { orgId_id: { orgId, id } }, data: contentFields(next) })
          : await tx.intentCard.create({ data: { orgId, id, createdAt: next.createdAt, ...contentFields(next) } });
        const card = toCard(row);
        const orgVersion = await bumpOrgVersion(tx, this.schema, orgId, 'cards_version');
        await this.outbox.add(tx, events(card, orgVersion));
        return { card, created: existing === null, orgVersion };
      });
    // Two first installs of one id race to insert: the loser retries and replaces the winner's card.
    const { orgVersion, ...result } = await attempt()
      .catch((err: unknown) => (isUniqueViolation(err) ? attempt() : Promise.reject(err)))
      .catch(rethrowUnavailable);
    await this.committed(cardsKey(orgId), orgVersion);
    return result;
  }

  async findById(orgId: string, id: string): Promise<IntentCard | null> {
    const row = await this.prisma.intentCard.findUnique({ where: { orgId_id: { orgId, id } } }).catch(rethrowUnavailable);
    return row ? toCard(row) : null;
  }

  async list(orgId: string, page: PageRequest): Promise<IntentCard[]> {
    const after = page.after;
    const rows = await this.prisma.intentCard
      .findMany({
        where: { orgId, ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}) },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: page.limit,
      })
      .catch(rethrowUnavailable);
    return rows.map(toCard);
  }

  async delete(orgId: string, id: string, events: IntentCardEvents): Promise<IntentCard | null> {
    const outcome = await this.prisma
      .$transaction(async (tx) => {
        const existing = await this.lockAndRead(tx, orgId, id);
        if (!existing) return null;
        await tx.intentCard.delete({ where: { orgId_id: { orgId, id } } });
        // The id's next install goes on from here: a version never names two contents.
        const version = existing.version + 1;
        await tx.intentCardRemoval.upsert({ where: { orgId_id: { orgId, id } }, create: { orgId, id, version }, update: { version } });
        const orgVersion = await bumpOrgVersion(tx, this.schema, orgId, 'cards_version');
        await this.outbox.add(tx, events(existing, orgVersion));
        return { deleted: existing, orgVersion };
      })
      .catch(rethrowUnavailable);
    if (!outcome) return null;
    await this.committed(cardsKey(orgId), outcome.orgVersion);
    return outcome.deleted;
  }

  async snapshot(orgId: string): Promise<{ version: number; cards: IntentCard[] }> {
    return this.consistentRead(async (tx) => {
      const counter = await tx.orgVersion.findUnique({ where: { orgId }, select: { cardsVersion: true } });
      const rows = await tx.intentCard.findMany({ where: { orgId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return { version: counter?.cardsVersion ?? 0, cards: rows.map(toCard) };
    });
  }

  orgIds(): Promise<string[]> {
    return this.orgIdsWith('cardsVersion');
  }
}
