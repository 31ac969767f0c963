import { defined } from '@igw/kernel';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EventEnvelope } from '@igw/contracts';
import { OutboxWriter, rethrowUnavailable, sqlExecutor, type ServiceDatabase } from '@igw/persistence';
import { announceVersion, OUTBOX_NOTIFIER, revocationsKey, VERSION_BOARD, type OutboxNotifier, type VersionBoard } from '@igw/events';
import type { Mandate, MandateBroker } from '../../domain/mandate';
import type { MandateScope } from '../../domain/mandate-scope';
import type { MandateEvents, MandateRepository, RevocationSnapshot, StoredMandate } from '../../application/ports/mandate.repository.port';
import { Prisma, type Mandate as MandateRow } from './generated/client';
import { MANDATE_ISSUER_DB, MANDATE_ISSUER_PRISMA, type MandateIssuerPrisma } from './mandate-issuer-prisma.client';

/** The `status` column: only revocation is stored; expiry is read from `expires_at` by the domain. */
export type StoredMandateStatus = 'active' | 'revoked';

export const storedStatus = (m: Pick<Mandate, 'revokedAt'>): StoredMandateStatus => (m.revokedAt !== null ? 'revoked' : 'active');

/** A row as the domain record. Timestamps are `timestamptz(3)`: the domain's milliseconds survive. */
export function toMandate(r: MandateRow): Mandate {
  return {
    credId: r.credId,
    orgId: r.orgId,
    actor: r.actor,
    intentId: r.intentId,
    promptId: r.promptId,
    audience: r.audience,
    scope: r.scope as unknown as MandateScope,
    context: r.context as Record<string, unknown>,
    acr: r.acr,
    issuedAt: r.issuedAt,
    expiresAt: r.expiresAt,
    revokedAt: r.revokedAt,
    revokeReason: r.revokeReason,
    refreshCount: r.refreshCount,
    lastRefreshedAt: r.lastRefreshedAt,
    kid: r.kid,
    broker: r.broker as MandateBroker | null,
    classificationEvidence: r.classificationEvidence as Record<string, unknown> | null,
  };
}

const json = (v: object) => v as Prisma.InputJsonValue;
/** A null JSON field is SQL NULL (not the JSON value `null`), so it reads back as null either way. */
const nullableJson = (v: object | null) => (v === null ? Prisma.DbNull : json(v));

/** Every column a change may write: all but the identity (`cred_id`, `org_id`) and the sealed broker handle. */
export function mutableColumns(m: Mandate) {
  return {
    actor: m.actor,
    intentId: m.intentId,
    promptId: m.promptId,
    audience: m.audience,
    scope: json(m.scope),
    context: json(m.context),
    acr: m.acr,
    kid: m.kid,
    issuedAt: m.issuedAt,
    expiresAt: m.expiresAt,
    status: storedStatus(m),
    revokedAt: m.revokedAt,
    revokeReason: m.revokeReason,
    refreshCount: m.refreshCount,
    lastRefreshedAt: m.lastRefreshedAt,
    broker: nullableJson(m.broker),
    classificationEvidence: nullableJson(m.classificationEvidence),
  } satisfies Prisma.MandateUpdateInput;
}

/** Largest value of the INTEGER counter: asking for revocations after it is asking for none. */
const MAX_REVOCATION_VERSION = 2_147_483_647;

/**
 * Mandates in the service's schema, each change committed with its outbox rows. Reads and writes
 * are scoped to the org: another org's cred_id is not found. A transition to revoked also bumps
 * the org's revocation counter (`org_revocation_versions`) in its transaction, stores the new
 * value as the mandate's `revocation_seq`, and advances the version board's `revocations:{org}`
 * to it after the commit, before the method returns.
 */
@Injectable()
export class PrismaMandateRepository implements MandateRepository {
  private readonly outbox: OutboxWriter;
  private readonly table: string;
  private readonly insertMandate: string;
  private readonly bumpRevocations: string;

  constructor(
    @Inject(MANDATE_ISSUER_PRISMA) private readonly prisma: MandateIssuerPrisma,
    @Inject(MANDATE_ISSUER_DB) private readonly db: ServiceDatabase,
    @Inject(OUTBOX_NOTIFIER) private readonly notifier: OutboxNotifier,
    /** Advanced to the org's new revocation counter after each revocation commits, before the method returns. */
    @Optional() @Inject(VERSION_BOARD) private readonly board?: VersionBoard | null,
  ) {
    this.outbox = new OutboxWriter(db.schema);
    this.table = `"${db.schema}"."mandates"`;
    // The upsert locks the org's counter row until commit: concurrent revocations of one org take
    // consecutive numbers in commit order (a first insert racing another waits for it, then updates).
    this.bumpRevocations = `INSERT INTO "${db.schema}"."org_revocation_versions" AS c ("org_id", "version", "updated_at") VALUES ($1, 1, now())
      ON CONFLICT ("org_id") DO UPDATE SET "version" = c."version" + 1, "updated_at" = now()
      RETURNING c."version" AS v`;
    this.insertMandate = `INSERT INTO ${this.table} ("cred_id", "org_id", "actor", "intent_id", "prompt_id", "audience", "scope", "context", "acr", "kid",
      "issued_at", "expires_at", "status", "revoked_at", "revoke_reason", "refresh_count", "last_refreshed_at", "broker", "broker_revocation_enc", "classification_evidence",
      "revocation_seq")
      VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11::timestamptz, $12::timestamptz, $13, $14::timestamptz, $15, $16, $17::timestamptz, $18::jsonb, $19, $20::jsonb, $21)`;
  }

  /**
   * Straight to the driver, not through Prisma: dispense is a hot write, and on PGlite Prisma's
   * interactive transaction costs ~4 ms per statement (docs/decisions/0005). A mandate created
   * revoked (a failed broker dispense) takes the org's next revocation number.
   */
  async create(stored: StoredMandate, events: MandateEvents): Promise<void> {
    const m = stored.mandate;
    const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
    const { envelopes, revocationVersion } = await this.db
      .transaction(async (tx) => {
        const revocationVersion =
          m.revokedAt !== null ? Number(defined((await tx.query<{ v: number }>(this.bumpRevocations, [m.orgId]))[0], 'revocation counter').v) : null;
        await tx.query(this.insertMandate, [
          m.credId,
          m.orgId,
          m.actor,
          m.intentId,
          m.promptId,
          m.audience,
          json(m.scope),
          json(m.context),
          m.acr,
          m.kid,
          m.issuedAt.toISOString(),
          m.expiresAt.toISOString(),
          storedStatus(m),
          m.revokedAt?.toISOString() ?? null,
          m.revokeReason,
          m.refreshCount,
          m.lastRefreshedAt?.toISOString() ?? null,
          json(m.broker),
          stored.brokerRevocationSealed,
          json(m.classificationEvidence),
          revocationVersion,
        ]);
        const envelopes: EventEnvelope[] = events(m, { revocationVersion });
        await this.outbox.add(sqlExecutor(tx), envelopes);
        return { envelopes, revocationVersion };
      })
      .catch(rethrowUnavailable);
    if (envelopes.length > 0) this.notifier.nudge();
    if (revocationVersion !== null) await announceVersion(this.board, revocationsKey(m.orgId), revocationVersion);
  }

  async find(orgId: string, credId: string): Promise<StoredMandate | null> {
    const row = await this.prisma.mandate.findFirst({ where: { credId, orgId } }).catch(rethrowUnavailable);
    return row ? { mandate: toMandate(row), brokerRevocationSealed: row.brokerRevocationEnc } : null;
  }

  async update(orgId: string, credId: string, change: (current: Mandate) => Mandate | null, events: MandateEvents): Promise<Mandate | null> {
    const result = await this.prisma
      .$transaction(async (tx) => {
        // Concurrent refreshes / revokes of one mandate queue on the row lock (held to commit);
        // each then reads the row as the previous one left it.
        const locked = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM ${this.table} WHERE "org_id" = $1 AND "cred_id" = $2 FOR UPDATE`, orgId, credId);
        if (locked.length === 0) return null;
        const row = await tx.mandate.findUniqueOrThrow({ where: { credId } });
        const current = toMandate(row);
        const next = change(current);
        // Nothing to write. A mandate already revoked re-announces its number: the board never goes
        // down, so this repairs a board write that failed when it was revoked (a retried revoke).
        if (next === null) return { mandate: current, written: 0, revocationVersion: row.revocationSeq ?? null };
        if (next.credId !== current.credId || next.orgId !== current.orgId) {
          throw new RangeError(`a change may not move mandate ${credId} to another cred_id or org`);
        }
        // Only the transition to revoked is numbered; a write to a mandate already revoked keeps its number.
        const revocationVersion =
          current.revokedAt === null && next.revokedAt !== null
            ? Number(defined((await tx.$queryRawUnsafe<{ v: number }[]>(this.bumpRevocations, orgId))[0], 'revocation counter').v)
            : null;
        const data = revocationVersion !== null ? { ...mutableColumns(next), revocationSeq: revocationVersion } : mutableColumns(next);
        const saved = toMandate(await tx.mandate.update({ where: { credId }, data }));
        const envelopes = events(saved, { revocationVersion });
        await this.outbox.add(tx, envelopes);
        return { mandate: saved, written: envelopes.length, revocationVersion };
      })
      .catch(rethrowUnavailable);
    if (result === null) return null;
    if (result.written > 0) this.notifier.nudge();
    if (result.revocationVersion !== null) await announceVersion(this.board, revocationsKey(orgId), result.revocationVersion);
    return result.mandate;
  }

  async revocationOrgIds(): Promise<string[]> {
    const rows = await this.prisma.orgRevocationVersion
      .findMany({ where: { version: { gt: 0 } }, select: { orgId: true }, orderBy: { orgId: 'asc' } })
      .catch(rethrowUnavailable);
    return rows.map((r) => r.orgId);
  }

  async revocationsSince(orgId: string, afterVersion: number, expiringAfter: Date): Promise<RevocationSnapshot> {
    const after = Math.min(afterVersion, MAX_REVOCATION_VERSION);
    // REPEATABLE READ: the counter and the rows come from one snapshot, so the list holds exactly
    // the revocations numbered up to `version` (under READ COMMITTED one could commit in between).
    return this.prisma
      .$transaction(
        async (tx) => {
          const counter = await tx.orgRevocationVersion.findUnique({ where: { orgId }, select: { version: true } });
          const rows = await tx.mandate.findMany({
            where: { orgId, revocationSeq: { gt: after }, expiresAt: { gt: expiringAfter } },
            select: { credId: true, expiresAt: true },
            orderBy: { revocationSeq: 'asc' },
          });
          return { version: counter?.version ?? 0, revoked: rows.map((r) => ({ credId: r.credId, expiresAt: r.expiresAt })) };
        },
        { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
      )
      .catch(rethrowUnavailable);
  }
}
