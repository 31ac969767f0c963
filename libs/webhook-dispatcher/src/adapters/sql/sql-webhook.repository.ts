import { announceVersion, webhooksKey, type VersionBoard } from '@igw/events';
import { defined, type PageKey } from '@igw/kernel';
import { keysetPageSql, rethrowUnavailable, type ServiceDatabase, type SqlRunner } from '@igw/persistence';
import {
  disableAfter,
  leasePlan,
  type AttemptOutcome,
  type Delivery,
  type DeliveryStatus,
  type Webhook,
  type WebhookSecret,
  type WebhookStatus,
} from '../../domain';
import type { ClaimedDelivery, DeliveryRepository, WebhookRepository } from '../../application/ports/webhook.repository.port';

type Row = Record<string, unknown>;
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

interface StoredSecret {
  id: string;
  sealed: string;
  created_at: string;
  expires_at: string | null;
}
const toStored = (s: WebhookSecret): StoredSecret => ({
  id: s.id,
  sealed: s.sealed,
  created_at: s.createdAt.toISOString(),
  expires_at: s.expiresAt?.toISOString() ?? null,
});
const fromStored = (s: StoredSecret): WebhookSecret => ({
  id: s.id,
  sealed: s.sealed,
  createdAt: new Date(s.created_at),
  expiresAt: s.expires_at ? new Date(s.expires_at) : null,
});

const toWebhook = (r: Row): Webhook => ({
  id: String(r['id']),
  orgId: String(r['org_id']),
  url: String(r['url']),
  events: r['events'] as string[],
  description: (r['description'] as string | null) ?? null,
  status: r['status'] as WebhookStatus,
  disabledReason: (r['disabled_reason'] as string | null) ?? null,
  secrets: json<StoredSecret[]>(r['secrets']).map(fromStored),
  createdAt: date(r['created_at']),
  updatedAt: date(r['updated_at']),
});

const toDelivery = (r: Row): Delivery => ({
  id: String(r['id']),
  orgId: String(r['org_id']),
  webhookId: String(r['webhook_id']),
  eventId: String(r['event_id']),
  eventType: String(r['event_type']),
  body: String(r['body']),
  status: r['status'] as DeliveryStatus,
  attempts: Number(r['attempts']),
  lastResponseCode: r['last_response_code'] === null || r['last_response_code'] === undefined ? null : Number(r['last_response_code']),
  lastError: (r['last_error'] as string | null) ?? null,
  nextAttemptAt: dateOrNull(r['next_attempt_at']),
  createdAt: date(r['created_at']),
  deliveredAt: dateOrNull(r['delivered_at']),
});

/** Bumps the org's subscription counter inside the caller's transaction; returns the new value. */
async function bumpSubscriptions(tx: SqlRunner, schema: string, orgId: string): Promise<number> {
  const rows = await tx.query<Row>(
    `INSERT INTO "${schema}"."org_webhook_versions" ("org_id", "version") VALUES ($1, 1)
     ON CONFLICT ("org_id") DO UPDATE SET "version" = "org_webhook_versions"."version" + 1 RETURNING "version"`,
    [orgId],
  );
  return Number(defined(rows[0], 'bumped subscription counter')['version']);
}

/** Attempts one webhook may have under way at once (across replicas). */

const WEBHOOK_COLUMNS = `"id", "org_id", "url", "events", "description", "status", "disabled_reason", "secrets", "created_at", "updated_at"`;
const DELIVERY_COLUMNS = `"id", "org_id", "webhook_id", "event_id", "event_type", "body", "status", "attempts", "last_response_code", "last_error", "next_attempt_at", "created_at", "delivered_at"`;

export class SqlWebhookRepository implements WebhookRepository {
  private readonly t: string;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly board?: VersionBoard,
  ) {
    this.t = `"${db.schema}"."webhooks"`;
  }

  async create(w: Webhook): Promise<void> {
    const version = await this.db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO ${this.t} (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`, [
          w.id,
          w.orgId,
          w.url,
          w.events,
          w.description,
          w.status,
          w.disabledReason,
          JSON.stringify(w.secrets.map(toStored)),
          w.createdAt.toISOString(),
          w.updatedAt.toISOString(),
        ]);
        return bumpSubscriptions(tx, this.db.schema, w.orgId);
      })
      .catch(rethrowUnavailable);
    await announceVersion(this.board, webhooksKey(w.orgId), version);
  }

  async enable(orgId: string, id: string, now: Date): Promise<Webhook | null> {
    const result = await this.db
      .transaction(async (tx) => {
        const rows = await tx.query<Row>(
          `UPDATE ${this.t} SET "status" = 'active', "disabled_reason" = NULL, "updated_at" = $3 WHERE "org_id" = $1 AND "id" = $2 RETURNING ${WEBHOOK_COLUMNS}`,
          [orgId, id, now.toISOString()],
        );
        if (!rows[0]) return null;
        return { webhook: toWebhook(rows[0]), version: await bumpSubscriptions(tx, this.db.schema, orgId) };
      })
      .catch(rethrowUnavailable);
    if (!result) return null;
    await announceVersion(this.board, webhooksKey(orgId), result.version);
    return result.webhook;
  }

  async subscriptions(orgId: string): Promise<{ version: number; types: string[] }> {
    return this.db
      .transaction(async (tx) => {
        // REPEATABLE READ: the counter and the set come from the same snapshot.
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const counter = await tx.query<Row>(`SELECT "version" FROM "${this.db.schema}"."org_webhook_versions" WHERE "org_id" = $1`, [orgId]);
        const types = await tx.query<Row>(`SELECT DISTINCT unnest("events") AS "type" FROM ${this.t} WHERE "org_id" = $1 AND "status" = 'active'`, [orgId]);
        return { version: Number(counter[0]?.['version'] ?? 0), types: types.map((r) => String(r['type'])) };
      })
      .catch(rethrowUnavailable);
  }

  async subscribedOrgIds(): Promise<string[]> {
    const rows = await this.db.query<Row>(`SELECT DISTINCT "org_id" FROM ${this.t} WHERE "status" = 'active' ORDER BY "org_id"`).catch(rethrowUnavailable);
    return rows.map((r) => String(r['org_id']));
  }

  async find(orgId: string, id: string): Promise<Webhook | null> {
    const rows = await this.db.query<Row>(`SELECT ${WEBHOOK_COLUMNS} FROM ${this.t} WHERE "org_id" = $1 AND "id" = $2`, [orgId, id]).catch(rethrowUnavailable);
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  async list(orgId: string, page: { limit: number; after: PageKey | null }): Promise<Webhook[]> {
    const [sql, params] = keysetPageSql({ select: WEBHOOK_COLUMNS, from: this.t, equal: [['org_id', orgId]], after: page.after, limit: page.limit });
    const rows = await this.db.query<Row>(sql, params).catch(rethrowUnavailable);
    return rows.map(toWebhook);
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    const version = await this.db
      .transaction(async (tx) => {
        const rows = await tx.query<Row>(`DELETE FROM ${this.t} WHERE "org_id" = $1 AND "id" = $2 RETURNING "id"`, [orgId, id]);
        return rows.length > 0 ? bumpSubscriptions(tx, this.db.schema, orgId) : null;
      })
      .catch(rethrowUnavailable);
    if (version === null) return false;
    await announceVersion(this.board, webhooksKey(orgId), version);
    return true;
  }

  async updateSecrets(orgId: string, id: string, change: (current: WebhookSecret[]) => WebhookSecret[], now: Date): Promise<Webhook | null> {
    return this.db
      .transaction(async (tx) => {
        const rows = await tx.query<Row>(`SELECT ${WEBHOOK_COLUMNS} FROM ${this.t} WHERE "org_id" = $1 AND "id" = $2 FOR UPDATE`, [orgId, id]);
        if (!rows[0]) return null;
        const secrets = change(toWebhook(rows[0]).secrets);
        const updated = await tx.query<Row>(
          `UPDATE ${this.t} SET "secrets" = $3::jsonb, "updated_at" = $4 WHERE "org_id" = $1 AND "id" = $2 RETURNING ${WEBHOOK_COLUMNS}`,
          [orgId, id, JSON.stringify(secrets.map(toStored)), now.toISOString()],
        );
        return toWebhook(defined(updated[0], 'updated webhook'));
      })
      .catch(rethrowUnavailable);
  }
}

export class SqlDeliveryRepository implements DeliveryRepository {
  private readonly d: string;
  private readonly w: string;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly board?: VersionBoard,
  ) {
    this.d = `"${db.schema}"."webhook_deliveries"`;
    this.w = `"${db.schema}"."webhooks"`;
  }

  async fanOut(event: { id: string; orgId: string; type: string; body: string; occurredAt: string }, now: Date): Promise<number> {
    // Ids are generated in SQL per row so one statement serves any number of webhooks.
    const rows = await this.db
      .query<Row>(
        `INSERT INTO ${this.d} ("id", "org_id", "webhook_id", "event_id", "event_type", "body", "status", "attempts", "next_attempt_at", "created_at")
         SELECT 'whd_' || md5($1 || w."id"), w."org_id", w."id", $1, $3, $4, 'pending', 0, $5, $5
         FROM ${this.w} w WHERE w."org_id" = $2 AND w."status" = 'active' AND $3 = ANY (w."events") AND w."created_at" <= $6::timestamptz + interval '60 seconds'
         -- Any conflict: the id is derived from (event, webhook), so two concurrent fan-outs of one
         -- event can collide on the primary key before the (webhook, event) constraint.
         ON CONFLICT DO NOTHING
         RETURNING "id"`,
        [event.id, event.orgId, event.type, event.body, now.toISOString(), event.occurredAt],
      )
      .catch(rethrowUnavailable);
    return rows.length;
  }

  async claimDue(limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]> {
    const plan = leasePlan(limit);
    const rows = await this.db
      .query<Row>(
        // Executes the domain's lease plan (fairness cap per webhook, bounded candidate window).
        `WITH candidates AS (
           SELECT c."id", c."webhook_id", c."next_attempt_at" FROM ${this.d} c
           WHERE c."status" = 'pending' AND c."next_attempt_at" <= $1 AND (c."lease_until" IS NULL OR c."lease_until" < $1)
           ORDER BY c."next_attempt_at" LIMIT $5),
         leased AS (
           SELECT l."webhook_id", count(*) AS "n" FROM ${this.d} l
           WHERE l."status" = 'pending' AND l."lease_until" IS NOT NULL AND l."lease_until" >= $1
           GROUP BY l."webhook_id"),
         ranked AS (
           SELECT k."id", row_number() OVER (PARTITION BY k."webhook_id" ORDER BY k."next_attempt_at") + COALESCE(le."n", 0) AS "slot"
           FROM candidates k LEFT JOIN leased le ON le."webhook_id" = k."webhook_id"),
         due AS (
           SELECT x."id" FROM ${this.d} x JOIN ranked r ON r."id" = x."id"
           -- Repeated on the locked row: a row another worker claimed after the candidates were read
           -- is re-checked once locked (READ COMMITTED) and dropped, never sent twice.
           WHERE r."slot" <= $4 AND x."status" = 'pending' AND (x."lease_until" IS NULL OR x."lease_until" < $1)
           ORDER BY x."next_attempt_at" LIMIT $2 FOR UPDATE OF x SKIP LOCKED)
         UPDATE ${this.d} d SET "lease_until" = $3 FROM due WHERE d."id" = due."id"
         RETURNING ${DELIVERY_COLUMNS.split(', ')
           .map((c) => `d.${c}`)
           .join(', ')}`,
        [now.toISOString(), plan.limit, new Date(now.getTime() + leaseMs).toISOString(), plan.perWebhookCap, plan.candidates],
      )
      .catch(rethrowUnavailable);
    if (rows.length === 0) return [];
    const deliveries = rows.map(toDelivery);
    const hooks = await this.db
      .query<Row>(`SELECT ${WEBHOOK_COLUMNS} FROM ${this.w} WHERE "id" = ANY ($1::text[])`, [[...new Set(deliveries.map((d) => d.webhookId))]])
      .catch(rethrowUnavailable);
    const byId = new Map(hooks.map((h) => [String(h['id']), toWebhook(h)]));
    return deliveries.flatMap((delivery) => {
      const webhook = byId.get(delivery.webhookId);
      // Deleted meanwhile: the cascade removed the delivery too; nothing to send.
      return webhook ? [{ delivery, webhook }] : [];
    });
  }

  async recordAttempt(delivery: Pick<Delivery, 'id' | 'webhookId'>, o: AttemptOutcome, now: Date): Promise<void> {
    // The common case is one statement (no transaction round trips); the domain may also disable.
    const disable = disableAfter(o);
    if (!disable) {
      await this.db.query(this.recordSql, this.recordParams(delivery.id, o)).catch(rethrowUnavailable);
      return;
    }
    const disabled = await this.db
      .transaction(async (tx): Promise<{ orgId: string; version: number } | null> => {
        await tx.query(this.recordSql, this.recordParams(delivery.id, o));
        await tx.query(`UPDATE ${this.w} SET "status" = $2, "disabled_reason" = $3, "updated_at" = $4 WHERE "id" = $1`, [
          delivery.webhookId,
          disable.status,
          disable.reason,
          now.toISOString(),
        ]);
        await tx.query(
          `UPDATE ${this.d} SET "status" = 'cancelled', "next_attempt_at" = NULL, "lease_until" = NULL WHERE "webhook_id" = $1 AND "status" = 'pending'`,
          [delivery.webhookId],
        );
        const owner = await tx.query<Row>(`SELECT "org_id" FROM ${this.w} WHERE "id" = $1`, [delivery.webhookId]);
        if (!owner[0]) return null;
        const orgId = String(owner[0]['org_id']);
        return { orgId, version: await bumpSubscriptions(tx, this.db.schema, orgId) };
      })
      .catch(rethrowUnavailable);
    if (disabled) await announceVersion(this.board, webhooksKey(disabled.orgId), disabled.version);
  }

  /**
   * One attempt's outcome. A delivery cancelled meanwhile (its webhook answered 410 to another
   * attempt) stays cancelled, unless this attempt did arrive: then the record says so.
   */
  private get recordSql(): string {
    return `UPDATE ${this.d} SET "status" = $2, "attempts" = $3, "last_response_code" = $4, "last_error" = $5, "next_attempt_at" = $6, "delivered_at" = $7, "lease_until" = NULL
      WHERE "id" = $1 AND ("status" = 'pending' OR $2 = 'succeeded')`;
  }

  private recordParams(id: string, o: AttemptOutcome): unknown[] {
    return [id, o.status, o.attempts, o.lastResponseCode, o.lastError, o.nextAttemptAt?.toISOString() ?? null, o.deliveredAt?.toISOString() ?? null];
  }

  async cancel(deliveryId: string): Promise<void> {
    await this.db
      .query(`UPDATE ${this.d} SET "status" = 'cancelled', "next_attempt_at" = NULL, "lease_until" = NULL WHERE "id" = $1 AND "status" = 'pending'`, [
        deliveryId,
      ])
      .catch(rethrowUnavailable);
  }

  async list(orgId: string, webhookId: string, page: { limit: number; after: PageKey | null; status?: DeliveryStatus }): Promise<Delivery[]> {
    const [sql, params] = keysetPageSql({
      select: DELIVERY_COLUMNS,
      from: this.d,
      equal: [
        ['org_id', orgId],
        ['webhook_id', webhookId],
        ['status', page.status || undefined],
      ],
      after: page.after,
      limit: page.limit,
    });
    const rows = await this.db.query<Row>(sql, params).catch(rethrowUnavailable);
    return rows.map(toDelivery);
  }

  async nextDueAt(): Promise<Date | null> {
    const rows = await this.db
      .query<Row>(`SELECT min(GREATEST("next_attempt_at", COALESCE("lease_until", "next_attempt_at"))) AS "at" FROM ${this.d} WHERE "status" = 'pending'`)
      .catch(rethrowUnavailable);
    return dateOrNull(rows[0]?.['at']);
  }
}
