import { Inject, Injectable } from '@nestjs/common';
import { OutboxWriter, rethrowUnavailable } from '@igw/persistence';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import type {
  Approval,
  ApprovalCandidate,
  ApprovalReasonCode,
  ApprovalSource,
  ApprovalStatus,
  ApprovalToolCall,
  ConversationMessage,
} from '../../domain/approval';
import type { PageRequest } from '../../application/paging';
import type { ApprovalEvents, ApprovalRepository } from '../../application/ports/approval.repository.port';
import { Prisma, type ApprovalRequest as ApprovalRow } from './generated/client';
import { APPROVALS_PRISMA, APPROVALS_SCHEMA_NAME, type ApprovalsPrisma } from './approvals-prisma.client';

/** Candidates are stored in their wire shape (snake_case), readable in SQL as the API shows them. */
interface StoredCandidate {
  intent_label: string;
  intention_id: string;
  confidence: number;
}

const toStoredCandidates = (cs: readonly ApprovalCandidate[]): StoredCandidate[] =>
  cs.map((c) => ({ intent_label: c.intentLabel, intention_id: c.intentionId, confidence: c.confidence }));
const fromStoredCandidates = (json: Prisma.JsonValue): ApprovalCandidate[] =>
  Array.isArray(json)
    ? (json as unknown as StoredCandidate[]).map((c) => ({ intentLabel: c.intent_label, intentionId: c.intention_id, confidence: c.confidence }))
    : [];
/** A nullable JSON column: SQL NULL for null (Prisma needs the sentinel). */
const jsonOrNull = (value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull => (value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

/** The columns of a new request (the domain record in the table's shape). */
const toRow = (a: Approval): Prisma.ApprovalRequestCreateInput => ({
  teachingKeyId: null,
  teachingUntil: null,
  ...a,
  candidates: toStoredCandidates(a.candidates) as unknown as Prisma.InputJsonValue,
  toolCall: jsonOrNull(a.toolCall),
  conversationContext: jsonOrNull(a.conversationContext),
});

/** The row without the teaching reservation (a concurrency device of this adapter, not part of the record). */
const toApproval = ({ teachingKeyId: _key, teachingUntil: _until, ...r }: ApprovalRow): Approval => ({
  id: r.id,
  orgId: r.orgId,
  status: r.status as ApprovalStatus,
  source: r.source as ApprovalSource,
  intentLabel: r.intentLabel,
  intentCardId: r.intentCardId,
  toolName: r.toolName,
  operation: r.operation,
  summary: r.summary,
  requestedByKeyId: r.requestedByKeyId,
  userId: r.userId,
  fingerprint: r.fingerprint,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
  decidedAt: r.decidedAt,
  decidedByKeyId: r.decidedByKeyId,
  reason: r.reason,
  consumedAt: r.consumedAt,
  reasonCode: r.reasonCode as ApprovalReasonCode | null,
  candidates: fromStoredCandidates(r.candidates),
  toolCall: r.toolCall as unknown as ApprovalToolCall | null,
  conversationContext: r.conversationContext as unknown as ConversationMessage[] | null,
});

/** What a status filter means at `now`: an overdue pending request counts as expired. */
function statusWhere(status: ApprovalStatus, now: Date): Prisma.ApprovalRequestWhereInput {
  if (status === 'pending') return { status: 'pending', expiresAt: { gt: now } };
  if (status === 'expired') return { OR: [{ status: 'expired' }, { status: 'pending', expiresAt: { lte: now } }] };
  return { status };
}

@Injectable()
export class PrismaApprovalRepository implements ApprovalRepository {
  private readonly outbox: OutboxWriter;
  private readonly table: string;

  constructor(
    @Inject(APPROVALS_PRISMA) private readonly prisma: ApprovalsPrisma,
    @Inject(APPROVALS_SCHEMA_NAME) schema: string,
    @Inject(OUTBOX_NOTIFIER) private readonly notifier: OutboxNotifier,
  ) {
    this.outbox = new OutboxWriter(schema);
    this.table = `"${schema}"."approval_requests"`;
  }

  async create(approval: Approval, events: ApprovalEvents): Promise<{ approval: Approval; created: boolean }> {
    const result = await this.prisma
      .$transaction(async (tx) => {
        // Serialises creators of one call (org + fingerprint) without a table lock; released at commit.
        await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', `approval:${approval.orgId}:${approval.fingerprint}`);
        const pending = await tx.approvalRequest.findFirst({
          where: { orgId: approval.orgId, fingerprint: approval.fingerprint, status: 'pending', expiresAt: { gt: approval.createdAt } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        });
        if (pending) return { approval: toApproval(pending), created: false };
        const saved = toApproval(await tx.approvalRequest.create({ data: toRow(approval) }));
        await this.outbox.add(tx, events(saved));
        return { approval: saved, created: true };
      })
      .catch(rethrowUnavailable);
    if (result.created) this.notifier.nudge();
    return result;
  }

  async backlog(orgId: string, now: Date): Promise<{ pending: number; oldestCreatedAt: Date | null }> {
    // The (org_id, status, created_at) index: the cost is the backlog's size, never the history's.
    const found = await this.prisma.approvalRequest
      .aggregate({ where: { orgId, ...statusWhere('pending', now) }, _count: { _all: true }, _min: { createdAt: true } })
      .catch(rethrowUnavailable);
    return { pending: found._count._all, oldestCreatedAt: found._min.createdAt };
  }

  async findById(orgId: string, id: string): Promise<Approval | null> {
    const row = await this.prisma.approvalRequest.findFirst({ where: { id, orgId } }).catch(rethrowUnavailable);
    return row ? toApproval(row) : null;
  }

  async list(orgId: string, filter: { status?: ApprovalStatus }, page: PageRequest, now: Date): Promise<Approval[]> {
    const after = page.after;
    const and: Prisma.ApprovalRequestWhereInput[] = [];
    if (filter.status) and.push(statusWhere(filter.status, now));
    if (after) and.push({ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] });
    const rows = await this.prisma.approvalRequest
      .findMany({ where: { orgId, AND: and }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: page.limit })
      .catch(rethrowUnavailable);
    return rows.map(toApproval);
  }

  async update(orgId: string, id: string, change: (current: Approval) => Approval, events: ApprovalEvents): Promise<Approval | null> {
    const saved = await this.prisma
      .$transaction(async (tx) => {
        // Concurrent decisions on one request queue here; each sees the previous one's result,
        // so of two approvals the second finds it approved and is refused.
        const locked = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM ${this.table} WHERE "org_id" = $1 AND "id" = $2 FOR UPDATE`, orgId, id);
        if (locked.length === 0) return null;
        const next = change(toApproval(await tx.approvalRequest.findUniqueOrThrow({ where: { id } })));
        const saved = toApproval(
          await tx.approvalRequest.update({
            where: { id },
            data: {
              status: next.status,
              decidedAt: next.decidedAt,
              decidedByKeyId: next.decidedByKeyId,
              reason: next.reason,
              consumedAt: next.consumedAt,
              // An operator's correction of the match (approving as another intention).
              intentLabel: next.intentLabel,
              candidates: toStoredCandidates(next.candidates) as unknown as Prisma.InputJsonValue,
              // A decision ends any reservation for teaching.
              teachingKeyId: null,
              teachingUntil: null,
            },
          }),
        );
        await this.outbox.add(tx, events(saved));
        return saved;
      })
      .catch(rethrowUnavailable);
    if (saved) this.notifier.nudge();
    return saved;
  }

  async reserveForTeaching(orgId: string, id: string, keyId: string, now: Date, until: Date): Promise<boolean> {
    // One statement: of concurrent reservations the row lock lets one write; the others re-check
    // the row (reserved now) and write nothing.
    const reserved = await this.prisma.approvalRequest
      .updateMany({
        where: {
          id,
          orgId,
          status: 'pending',
          expiresAt: { gt: now },
          OR: [{ teachingUntil: null }, { teachingUntil: { lte: now } }],
        },
        data: { teachingKeyId: keyId, teachingUntil: until },
      })
      .catch(rethrowUnavailable);
    return reserved.count === 1;
  }

  async releaseTeaching(orgId: string, id: string, keyId: string): Promise<void> {
    await this.prisma.approvalRequest
      .updateMany({ where: { id, orgId, teachingKeyId: keyId }, data: { teachingKeyId: null, teachingUntil: null } })
      .catch(rethrowUnavailable);
  }

  async consume(orgId: string, fingerprint: string, now: Date): Promise<Approval | null> {
    // One statement: the row lock taken by the subquery makes a concurrent consumer wait, re-check
    // the row (now used) and move on, so each approval is used once.
    const used = await this.prisma
      .$queryRawUnsafe<{ id: string }[]>(
        `UPDATE ${this.table} SET "consumed_at" = $3::timestamptz
         WHERE "id" = (
           SELECT "id" FROM ${this.table}
           WHERE "org_id" = $1 AND "fingerprint" = $2 AND "status" = 'approved' AND "consumed_at" IS NULL AND "expires_at" > $3::timestamptz
           ORDER BY "created_at", "id" LIMIT 1 FOR UPDATE)
         RETURNING "id"`,
        orgId,
        fingerprint,
        now.toISOString(),
      )
      .catch(rethrowUnavailable);
    const [first] = used;
    return first === undefined ? null : this.findById(orgId, first.id);
  }

  async expireDue(now: Date, limit: number, events: ApprovalEvents): Promise<Approval[]> {
    const expired = await this.prisma
      .$transaction(async (tx) => {
        // SKIP LOCKED: replicas sweeping together split the work; the status check in the UPDATE
        // (re-evaluated on the locked row) keeps a decided request from being expired.
        const ids = await tx.$queryRawUnsafe<{ id: string }[]>(
          `UPDATE ${this.table} SET "status" = 'expired'
           WHERE "id" IN (
             SELECT "id" FROM ${this.table}
             WHERE "status" = 'pending' AND "expires_at" <= $1::timestamptz
             ORDER BY "expires_at" LIMIT ${Math.max(1, Math.floor(limit))} FOR UPDATE SKIP LOCKED)
           AND "status" = 'pending'
           RETURNING "id"`,
          now.toISOString(),
        );
        if (ids.length === 0) return [];
        const rows = await tx.approvalRequest.findMany({ where: { id: { in: ids.map((r) => r.id) } }, orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }] });
        const saved = rows.map(toApproval);
        await this.outbox.add(tx, saved.flatMap(events));
        return saved;
      })
      .catch(rethrowUnavailable);
    if (expired.length > 0) this.notifier.nudge();
    return expired;
  }
}
