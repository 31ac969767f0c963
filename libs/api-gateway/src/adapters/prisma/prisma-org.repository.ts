import { Inject, Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@igw/contracts';
import { OutboxWriter, rethrowUnavailable } from '@igw/persistence';
import type { Scope } from '@igw/kernel';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import type { ApiKeyRecord, ApiKeyRepository, NewApiKey, OrgRecord, OrgRepository } from '../../application/ports/org.repository.port';
import { GATEWAY_PRISMA, GATEWAY_SCHEMA, type GatewayPrisma } from './gateway-prisma.client';

type OrgRow = { id: string; name: string; rateLimitRps: number | null; rateLimitBurst: number | null; createdAt: Date };
type KeyRow = { id: string; orgId: string; name: string; scope: string; prefix: string; createdAt: Date; revokedAt: Date | null };

const toOrg = (r: OrgRow): OrgRecord => ({
  id: r.id,
  name: r.name,
  rateLimit: r.rateLimitRps && r.rateLimitBurst ? { requestsPerSecond: r.rateLimitRps, burst: r.rateLimitBurst } : null,
  createdAt: r.createdAt,
});
const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  orgId: r.orgId,
  name: r.name,
  scope: r.scope as Scope,
  prefix: r.prefix,
  createdAt: r.createdAt,
  revokedAt: r.revokedAt,
});

const outbox = new OutboxWriter(GATEWAY_SCHEMA);

@Injectable()
export class PrismaOrgRepository implements OrgRepository {
  constructor(
    @Inject(GATEWAY_PRISMA) private readonly prisma: GatewayPrisma,
    @Inject(OUTBOX_NOTIFIER) private readonly notifier: OutboxNotifier,
  ) {}

  async createWithAdminKey(org: OrgRecord, key: NewApiKey, events: EventEnvelope[]): Promise<void> {
    await this.prisma
      .$transaction(async (tx) => {
        await tx.org.create({
          data: {
            id: org.id,
            name: org.name,
            rateLimitRps: org.rateLimit?.requestsPerSecond ?? null,
            rateLimitBurst: org.rateLimit?.burst ?? null,
            createdAt: org.createdAt,
          },
        });
        await tx.apiKey.create({ data: { ...key } });
        await outbox.add(tx, events);
      })
      .catch(rethrowUnavailable);
    this.notifier.nudge();
  }

  async findById(id: string): Promise<OrgRecord | null> {
    const row = await this.prisma.org.findUnique({ where: { id } }).catch(rethrowUnavailable);
    return row ? toOrg(row) : null;
  }

  async findByName(name: string): Promise<OrgRecord | null> {
    const row = await this.prisma.org.findFirst({ where: { name }, orderBy: { createdAt: 'asc' } }).catch(rethrowUnavailable);
    return row ? toOrg(row) : null;
  }

  async count(): Promise<number> {
    return this.prisma.org.count().catch(rethrowUnavailable);
  }

  async updateRateLimit(id: string, rateLimit: RateLimitPolicy | null): Promise<OrgRecord | null> {
    const updated = await this.prisma.org
      .updateManyAndReturn({ where: { id }, data: { rateLimitRps: rateLimit?.requestsPerSecond ?? null, rateLimitBurst: rateLimit?.burst ?? null } })
      .catch(rethrowUnavailable);
    return updated[0] ? toOrg(updated[0]) : null;
  }
}

@Injectable()
export class PrismaApiKeyRepository implements ApiKeyRepository {
  constructor(
    @Inject(GATEWAY_PRISMA) private readonly prisma: GatewayPrisma,
    @Inject(OUTBOX_NOTIFIER) private readonly notifier: OutboxNotifier,
  ) {}

  async create(key: NewApiKey, events: EventEnvelope[]): Promise<void> {
    await this.prisma
      .$transaction(async (tx) => {
        await tx.apiKey.create({ data: { ...key } });
        await outbox.add(tx, events);
      })
      .catch(rethrowUnavailable);
    this.notifier.nudge();
  }

  async listByOrg(orgId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.prisma.apiKey.findMany({ where: { orgId }, orderBy: { createdAt: 'asc' } }).catch(rethrowUnavailable);
    return rows.map(toKey);
  }

  async findByHash(hash: string): Promise<{ key: ApiKeyRecord; org: OrgRecord } | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { hash }, include: { org: true } }).catch(rethrowUnavailable);
    return row ? { key: toKey(row), org: toOrg(row.org) } : null;
  }

  async revoke(orgId: string, id: string, at: Date, events: (key: ApiKeyRecord) => EventEnvelope[]): Promise<ApiKeyRecord | null> {
    const result = await this.prisma
      .$transaction(async (tx) => {
        const row = await tx.apiKey.findFirst({ where: { id, orgId } });
        if (!row) return null;
        if (row.revokedAt) return toKey(row);
        const updated = await tx.apiKey.update({ where: { id }, data: { revokedAt: at } });
        const key = toKey(updated);
        await outbox.add(tx, events(key));
        return key;
      })
      .catch(rethrowUnavailable);
    this.notifier.nudge();
    return result;
  }
}
