// The SQL webhook and delivery repository specs' world (sql-webhook.repository.int-spec.ts and
// sql-delivery.repository.int-spec.ts): webhooks, events, attempt outcomes and the repositories on their own schema.
import { MemoryVersionBoard } from '@igw/events';
import { type ServiceDatabase } from '@igw/persistence';
import { dropTestSchema, openMigratedSchema, testSchemaName, atTestTime as at, randomHex as rnd } from '@igw/persistence/testing';
import { type AttemptOutcome, type Webhook } from '../../domain';
import { WEBHOOK_DISPATCHER_MIGRATIONS } from '../../webhook-dispatcher.module';
import { SqlDeliveryRepository, SqlWebhookRepository } from './sql-webhook.repository';

let seq = 0;
export function webhook(orgId: string, over: Partial<Webhook> = {}): Webhook {
  seq++;
  return {
    id: `whk_${rnd()}_${seq}`,
    orgId,
    url: `https://hooks.example.com/${seq}`,
    events: ['decision.made'],
    description: null,
    status: 'active',
    disabledReason: null,
    secrets: [{ id: `whs_${seq}`, sealed: `sealed-${seq}`, createdAt: at(0), expiresAt: null }],
    createdAt: at(seq * 1000),
    updatedAt: at(seq * 1000),
    ...over,
  };
}

/** Webhooks here are created within the first ~day after T0 (atTestTime(0)); events occur after that unless told otherwise. */
export const LATER = at(30 * 86_400_000).toISOString();
export const event = (orgId: string, type = 'decision.made', id = `evt_${rnd()}`, occurredAt = LATER) => ({
  id,
  orgId,
  type,
  body: JSON.stringify({ type, timestamp: occurredAt, data: { n: id } }),
  occurredAt,
});
export const outcome = (over: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  status: 'succeeded',
  attempts: 1,
  lastResponseCode: 200,
  lastError: null,
  nextAttemptAt: null,
  deliveredAt: at(1),
  disableWebhook: false,
  ...over,
});

/**
 * Both repositories on a schema of their own for one spec file, migrated before its specs and
 * dropped after them; `others` are databases the specs open and close.
 */
export function webhookRepositoriesUnderTest() {
  const t = {
    schema: testSchemaName('webhooks'),
    db: undefined as unknown as ServiceDatabase,
    webhooks: undefined as unknown as SqlWebhookRepository,
    deliveries: undefined as unknown as SqlDeliveryRepository,
    board: new MemoryVersionBoard(),
    others: [] as ServiceDatabase[],
    deliveriesOf: async (webhookId: string) =>
      t.db.query<{ id: string; status: string; event_id: string; lease_until: Date | null; next_attempt_at: Date | null; attempts: number }>(
        `SELECT id, status, event_id, lease_until, next_attempt_at, attempts FROM "${t.schema}"."webhook_deliveries" WHERE webhook_id = $1 ORDER BY event_id`,
        [webhookId],
      ),
    /** Builds one webhook of `org` per override and stores them, in order. */
    stored: async <T extends Partial<Webhook>[]>(org: string, ...overs: T): Promise<{ [K in keyof T]: Webhook }> => {
      const made = overs.map((over) => webhook(org, over));
      for (const w of made) await t.webhooks.create(w);
      return made as { [K in keyof T]: Webhook };
    },
    wipe: async () => {
      await t.db.query(`DELETE FROM "${t.schema}"."webhook_deliveries"`);
      await t.db.query(`DELETE FROM "${t.schema}"."webhooks"`);
    },
  };
  beforeAll(async () => {
    t.db = await openMigratedSchema(t.schema, WEBHOOK_DISPATCHER_MIGRATIONS, 12);
    t.webhooks = new SqlWebhookRepository(t.db, t.board);
    t.deliveries = new SqlDeliveryRepository(t.db, t.board);
  });
  afterAll(async () => {
    for (const o of t.others) await o.close().catch(() => undefined);
    await dropTestSchema(t.db);
  });
  return t;
}
