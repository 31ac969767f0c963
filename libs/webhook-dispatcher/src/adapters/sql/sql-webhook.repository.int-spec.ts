import { MemoryVersionBoard, webhooksKey } from '@igw/events';
import { DependencyUnavailableError, type PageKey } from '@igw/kernel';
import { openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import {
  DEAD_DATABASE_URL,
  dropTestSchema,
  openMigratedSchema,
  testSchemaName,
  atTestTime as at,
  uniqueOrgId as newOrg,
  randomHex as rnd,
} from '@igw/persistence/testing';
import {
  afterAttempt,
  DEFAULT_RETRY_SCHEDULE_S,
  MAX_LEASED_PER_WEBHOOK,
  type AttemptOutcome,
  type Delivery,
  type Webhook,
  type WebhookSecret,
} from '../../domain';
import { WEBHOOK_DISPATCHER_MIGRATIONS } from '../../webhook-dispatcher.module';
import { SqlDeliveryRepository, SqlWebhookRepository } from './sql-webhook.repository';

const schema = testSchemaName('webhooks');

let seq = 0;
function webhook(orgId: string, over: Partial<Webhook> = {}): Webhook {
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
const LATER = at(30 * 86_400_000).toISOString();
const event = (orgId: string, type = 'decision.made', id = `evt_${rnd()}`, occurredAt = LATER) => ({
  id,
  orgId,
  type,
  body: JSON.stringify({ type, timestamp: occurredAt, data: { n: id } }),
  occurredAt,
});
const outcome = (over: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  status: 'succeeded',
  attempts: 1,
  lastResponseCode: 200,
  lastError: null,
  nextAttemptAt: null,
  deliveredAt: at(1),
  disableWebhook: false,
  ...over,
});

describe('SqlWebhookRepository / SqlDeliveryRepository (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let webhooks: SqlWebhookRepository;
  let deliveries: SqlDeliveryRepository;
  const board = new MemoryVersionBoard();
  const others: ServiceDatabase[] = [];

  const deliveriesOf = async (webhookId: string) =>
    db.query<{ id: string; status: string; event_id: string; lease_until: Date | null; next_attempt_at: Date | null; attempts: number }>(
      `SELECT id, status, event_id, lease_until, next_attempt_at, attempts FROM "${schema}"."webhook_deliveries" WHERE webhook_id = $1 ORDER BY event_id`,
      [webhookId],
    );
  /** Builds one webhook of `org` per override and stores them, in order. */
  const stored = async <T extends Partial<Webhook>[]>(org: string, ...overs: T): Promise<{ [K in keyof T]: Webhook }> => {
    const made = overs.map((over) => webhook(org, over));
    for (const w of made) await webhooks.create(w);
    return made as { [K in keyof T]: Webhook };
  };
  const wipe = async () => {
    await db.query(`DELETE FROM "${schema}"."webhook_deliveries"`);
    await db.query(`DELETE FROM "${schema}"."webhooks"`);
  };

  beforeAll(async () => {
    db = await openMigratedSchema(schema, WEBHOOK_DISPATCHER_MIGRATIONS, 12);
    webhooks = new SqlWebhookRepository(db, board);
    deliveries = new SqlDeliveryRepository(db, board);
  });

  afterAll(async () => {
    for (const o of others) await o.close().catch(() => undefined);
    await dropTestSchema(db);
  });

  describe('subscriptions (the counter behind the in-memory copies)', () => {
    it('create, delete and a 410 disable bump the org counter in their transaction and advance the board after commit', async () => {
      const org = newOrg('subs');
      expect(await webhooks.subscriptions(org)).toEqual({ version: 0, types: [] });
      const a = webhook(org, { events: ['decision.made', 'intent.evaluated'] });
      const b = webhook(org, { events: ['decision.made'] });
      await webhooks.create(a);
      expect(await board.current(webhooksKey(org))).toBe(1);
      await webhooks.create(b);
      expect(await webhooks.subscriptions(org)).toEqual({ version: 2, types: expect.arrayContaining(['decision.made', 'intent.evaluated']) });
      expect((await webhooks.subscriptions(org)).types).toHaveLength(2);
      expect(await webhooks.delete(org, a.id)).toBe(true);
      expect(await webhooks.delete(org, a.id)).toBe(false);
      expect(await webhooks.subscriptions(org)).toEqual({ version: 3, types: ['decision.made'] });
      expect(await board.current(webhooksKey(org))).toBe(3);
      await deliveries.fanOut(event(org, 'decision.made', 'evt_subs'), at(0));
      const [c] = await deliveries.claimDue(5, 10_000, at(1));
      await deliveries.recordAttempt(c!.delivery, afterAttempt(0, { status: 410, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(2)), at(2));
      expect(await webhooks.subscriptions(org)).toEqual({ version: 4, types: [] });
      expect(await board.current(webhooksKey(org))).toBe(4);
      expect(await webhooks.enable(org, b.id, at(3))).toMatchObject({ status: 'active', disabledReason: null });
      expect(await webhooks.subscriptions(org)).toEqual({ version: 5, types: ['decision.made'] });
      expect(await board.current(webhooksKey(org))).toBe(5);
      expect(await webhooks.enable(newOrg('x'), b.id, at(4))).toBeNull();
      expect(await webhooks.subscriptions(newOrg('none'))).toEqual({ version: 0, types: [] });
    });
  });

  describe('webhooks', () => {
    it('create then find returns it exactly, only within its org', async () => {
      const org = newOrg('find');
      const w = webhook(org, {
        events: ['decision.made', 'approval.requested'],
        description: 'ops team',
        secrets: [
          { id: 'whs_a', sealed: 'v1.sealed.a', createdAt: at(5), expiresAt: null },
          { id: 'whs_b', sealed: 'v1.sealed.b', createdAt: at(1), expiresAt: at(86_400_000) },
        ],
      });
      await webhooks.create(w);
      expect(await webhooks.find(org, w.id)).toEqual(w);
      expect(await webhooks.find(newOrg('other'), w.id)).toBeNull();
      expect(await webhooks.find(org, 'whk_missing')).toBeNull();
    });

    it("lists newest first, paged by (created_at, id), only the org's own", async () => {
      const org = newOrg('list');
      const same = at(999_999);
      const mine = [
        webhook(org),
        webhook(org),
        webhook(org),
        webhook(org, { createdAt: same, id: 'whk_list_a' }),
        webhook(org, { createdAt: same, id: 'whk_list_b' }),
      ];
      for (const w of mine) await webhooks.create(w);
      await webhooks.create(webhook(newOrg('list_other')));
      const expected = [...mine].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((w) => w.id);

      const seen: string[] = [];
      let after: PageKey | null = null;
      for (let page = 0; page < 5; page++) {
        const rows = await webhooks.list(org, { limit: 2, after });
        expect(rows.length).toBeLessThanOrEqual(3); // limit + 1 tells there is more
        const items = rows.slice(0, 2);
        seen.push(...items.map((w) => w.id));
        if (rows.length <= 2) break;
        after = { createdAt: items[1]!.createdAt, id: items[1]!.id };
      }
      expect(seen).toEqual(expected);
      expect(expected.slice(0, 2)).toEqual(['whk_list_b', 'whk_list_a']);
    });

    it("delete removes the webhook and (cascade) its deliveries; false for unknown or another org's", async () => {
      const org = newOrg('del');
      const [w, keep] = await stored(org, {}, {});
      expect(await deliveries.fanOut(event(org), at(0))).toBe(2);
      expect(await deliveries.fanOut(event(org), at(0))).toBe(2);
      expect(await deliveriesOf(w.id)).toHaveLength(2);

      expect(await webhooks.delete(newOrg('intruder'), w.id)).toBe(false);
      expect(await webhooks.find(org, w.id)).not.toBeNull();
      expect(await webhooks.delete(org, w.id)).toBe(true);
      expect(await webhooks.find(org, w.id)).toBeNull();
      expect(await deliveriesOf(w.id)).toEqual([]);
      expect(await deliveriesOf(keep.id)).toHaveLength(2);
      expect(await webhooks.delete(org, w.id)).toBe(false);
    });

    it('updateSecrets replaces the secrets and updated_at; null (change not called) when not found', async () => {
      const org = newOrg('sec');
      const [w] = await stored(org, {});
      const fresh: WebhookSecret = { id: 'whs_new', sealed: 'sealed-new', createdAt: at(10), expiresAt: null };
      const updated = await webhooks.updateSecrets(org, w.id, (current) => [fresh, ...current.map((s) => ({ ...s, expiresAt: at(99) }))], at(10));
      expect(updated).toEqual({ ...w, secrets: [fresh, { ...w.secrets[0]!, expiresAt: at(99) }], updatedAt: at(10) });
      expect(await webhooks.find(org, w.id)).toEqual(updated);

      const change = jest.fn((s: WebhookSecret[]) => s);
      expect(await webhooks.updateSecrets(org, 'whk_missing', change, at(11))).toBeNull();
      expect(await webhooks.updateSecrets(newOrg('intruder'), w.id, change, at(11))).toBeNull();
      expect(change).not.toHaveBeenCalled();
    });

    it('concurrent rotations serialize: 10 at once, each sees the secrets the previous one left', async () => {
      const org = newOrg('race');
      const [w] = await stored(org, {});
      const seen: string[][] = [];
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          webhooks.updateSecrets(
            org,
            w.id,
            (current) => {
              seen.push(current.map((s) => s.id));
              return [{ id: `whs_r${i}`, sealed: `sealed-r${i}`, createdAt: at(100 + i), expiresAt: null }, ...current];
            },
            at(100 + i),
          ),
        ),
      );
      // Every call saw one more secret than the one before it, and the last write kept them all.
      expect(seen.map((s) => s.length)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.slice(1)).toEqual(seen[i - 1]);
      const final = await webhooks.find(org, w.id);
      expect(final!.secrets).toHaveLength(11);
      expect(new Set(final!.secrets.map((s) => s.id)).size).toBe(11);
    });
  });

  describe('deliveries', () => {
    beforeEach(wipe);

    it('fanOut: one pending delivery per active webhook of that org subscribed to the type', async () => {
      const org = newOrg('fan');
      const subscribed = webhook(org, { events: ['approval.requested', 'decision.made'] });
      const otherType = webhook(org, { events: ['approval.requested'] });
      const disabled = webhook(org, { status: 'disabled', disabledReason: 'gone' });
      const otherOrg = webhook(newOrg('fan_other'));
      for (const w of [subscribed, otherType, disabled, otherOrg]) await webhooks.create(w);

      const e = event(org);
      expect(await deliveries.fanOut(e, at(5))).toBe(1);
      const list = await deliveries.list(org, subscribed.id, { limit: 10, after: null });
      expect(list).toEqual([
        {
          id: expect.stringMatching(/^whd_/),
          orgId: org,
          webhookId: subscribed.id,
          eventId: e.id,
          eventType: 'decision.made',
          body: e.body,
          status: 'pending',
          attempts: 0,
          lastResponseCode: null,
          lastError: null,
          nextAttemptAt: at(5),
          createdAt: at(5),
          deliveredAt: null,
        },
      ]);
      for (const w of [otherType, disabled, otherOrg]) expect(await deliveriesOf(w.id)).toEqual([]);
      expect(await deliveries.fanOut(event(org, 'mandate.revoked'), at(6))).toBe(0);
    });

    it('fanOut skips webhooks registered after the event occurred, give or take 60 s of clock difference', async () => {
      const org = newOrg('age');
      const [old, young] = await stored(org, { createdAt: at(100_000) }, { createdAt: at(300_000) });
      expect(await deliveries.fanOut(event(org, 'decision.made', 'evt_before_both', at(100_000 - 61_000).toISOString()), at(400_000))).toBe(0);
      expect(await deliveries.fanOut(event(org, 'decision.made', 'evt_between', at(300_000 - 61_000).toISOString()), at(400_000))).toBe(1);
      expect(await deliveries.fanOut(event(org, 'decision.made', 'evt_near_young', at(300_000 - 59_000).toISOString()), at(400_000))).toBe(2);
      expect((await deliveriesOf(old.id)).map((d) => d.event_id).sort()).toEqual(['evt_between', 'evt_near_young']);
      expect((await deliveriesOf(young.id)).map((d) => d.event_id)).toEqual(['evt_near_young']);
    });

    it('fanOut is idempotent: the same event twice (even concurrently) creates one delivery per webhook', async () => {
      const org = newOrg('idem');
      const [a, b] = await stored(org, {}, {});
      const e = event(org);
      expect(await deliveries.fanOut(e, at(0))).toBe(2);
      expect(await deliveries.fanOut(e, at(1))).toBe(0);
      const counts = await Promise.all([deliveries.fanOut(e, at(2)), deliveries.fanOut(e, at(2))]);
      expect(counts).toEqual([0, 0]);
      const e2 = event(org);
      const racing = await Promise.all([deliveries.fanOut(e2, at(3)), deliveries.fanOut(e2, at(3)), deliveries.fanOut(e2, at(3))]);
      expect(racing.reduce((x, y) => x + y, 0)).toBe(2);
      expect(await deliveriesOf(a.id)).toHaveLength(2);
      expect(await deliveriesOf(b.id)).toHaveLength(2);
    });

    it('claimDue takes only pending deliveries whose time has come, oldest first, with their webhook', async () => {
      const org = newOrg('due');
      const [w] = await stored(org, {});
      const early = event(org, 'decision.made', 'evt_1_early');
      const later = event(org, 'decision.made', 'evt_2_later');
      const future = event(org, 'decision.made', 'evt_3_future');
      await deliveries.fanOut(early, at(0));
      await deliveries.fanOut(later, at(10));
      await deliveries.fanOut(future, at(60_000));
      const done = event(org, 'decision.made', 'evt_0_done');
      await deliveries.fanOut(done, at(0));
      const [doneRow] = (await deliveriesOf(w.id)).filter((d) => d.event_id === done.id);
      await deliveries.recordAttempt({ id: doneRow!.id, webhookId: w.id }, outcome(), at(1));

      expect(await deliveries.claimDue(10, 30_000, at(-1))).toEqual([]);
      const claimed = await deliveries.claimDue(10, 30_000, at(20));
      expect(claimed.map((c) => c.delivery.eventId)).toEqual([early.id, later.id]);
      expect(claimed[0]!.webhook).toMatchObject({ id: w.id, url: w.url, status: 'active', secrets: w.secrets });
      expect(claimed[0]!.delivery).toMatchObject({ status: 'pending', attempts: 0, body: early.body, webhookId: w.id, orgId: org });
      const rows = await deliveriesOf(w.id);
      expect(rows.filter((r) => r.lease_until !== null).map((r) => r.event_id)).toEqual([early.id, later.id]);
      expect(rows.find((r) => r.event_id === early.id)!.lease_until).toEqual(at(30_020));

      // The limit is respected.
      expect(await deliveries.claimDue(1, 30_000, at(120_000))).toHaveLength(1);
    });

    it('two concurrent claimers never get the same delivery (SKIP LOCKED)', async () => {
      const org = newOrg('skip');
      const hooks = [webhook(org), webhook(org), webhook(org), webhook(org)];
      for (const w of hooks) await webhooks.create(w);
      for (let i = 0; i < 15; i++) await deliveries.fanOut(event(org), at(i));
      // 60 due deliveries, claimed by 6 workers at once in batches of 8, repeatedly.
      const taken: string[] = [];
      for (let round = 0; round < 4; round++) {
        const batches = await Promise.all(Array.from({ length: 6 }, () => deliveries.claimDue(8, 60_000, at(1000))));
        for (const b of batches) taken.push(...b.map((c) => c.delivery.id));
      }
      expect(taken).toHaveLength(60);
      expect(new Set(taken).size).toBe(60);
      expect(await deliveries.claimDue(100, 60_000, at(1000))).toEqual([]);
    });

    it('a lease hides a claimed delivery until it runs out; a recorded attempt ends it', async () => {
      const org = newOrg('lease');
      const [w] = await stored(org, {});
      await deliveries.fanOut(event(org), at(0));
      const [first] = await deliveries.claimDue(5, 10_000, at(0));
      expect(first).toBeDefined();
      expect(await deliveries.claimDue(5, 10_000, at(5_000))).toEqual([]);
      expect(await deliveries.claimDue(5, 10_000, at(10_000))).toEqual([]);
      // The worker died: the lease ran out, another worker takes it.
      const [again] = await deliveries.claimDue(5, 10_000, at(10_001));
      expect(again!.delivery.id).toBe(first!.delivery.id);

      // A failed attempt stores the retry and ends the lease: due again at its next attempt, not later.
      const o = afterAttempt(0, { status: 503, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(10_002));
      await deliveries.recordAttempt(again!.delivery, o, at(10_002));
      const [row] = await deliveriesOf(w.id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lease_until: null, next_attempt_at: at(15_002) });
      expect(await deliveries.claimDue(5, 10_000, at(15_001))).toEqual([]);
      const [third] = await deliveries.claimDue(5, 60_000, at(15_002));
      expect(third!.delivery).toMatchObject({ id: first!.delivery.id, attempts: 1, lastResponseCode: 503, lastError: 'endpoint answered 503' });
    });

    it('recordAttempt stores every field of the outcome', async () => {
      const org = newOrg('rec');
      const [w] = await stored(org, {});
      await deliveries.fanOut(event(org), at(0));
      const [c] = await deliveries.claimDue(5, 10_000, at(0));
      await deliveries.recordAttempt(c!.delivery, outcome({ attempts: 3, lastResponseCode: 204, deliveredAt: at(77) }), at(77));
      const [d] = await deliveries.list(org, w.id, { limit: 5, after: null });
      expect(d).toMatchObject({ status: 'succeeded', attempts: 3, lastResponseCode: 204, lastError: null, nextAttemptAt: null, deliveredAt: at(77) });
      // A finished delivery is not reopened by a late outcome.
      await deliveries.recordAttempt(c!.delivery, outcome({ status: 'pending', attempts: 4, lastResponseCode: 500, deliveredAt: null }), at(78));
      expect((await deliveries.list(org, w.id, { limit: 5, after: null }))[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
      await deliveries.fanOut(event(org, 'decision.made', 'evt_exhaust'), at(80));
      const [e] = await deliveries.claimDue(5, 10_000, at(80));
      await deliveries.recordAttempt(
        e!.delivery,
        outcome({ status: 'exhausted', attempts: 7, lastResponseCode: null, lastError: 'no answer within 10000 ms', deliveredAt: null }),
        at(81),
      );
      expect((await deliveries.list(org, w.id, { limit: 5, after: null })).find((d) => d.eventId === 'evt_exhaust')).toMatchObject({
        status: 'exhausted',
        attempts: 7,
        lastResponseCode: null,
        lastError: 'no answer within 10000 ms',
        deliveredAt: null,
      });
    });

    it('a delivery cancelled while its attempt ran stays cancelled on a failure, and is recorded succeeded on a 2xx', async () => {
      const org = newOrg('late');
      const [w] = await stored(org, {});
      for (let i = 0; i < 3; i++) await deliveries.fanOut(event(org, 'decision.made', `evt_late_${i}`), at(i));
      const claimed = await deliveries.claimDue(5, 10_000, at(10));
      expect(claimed).toHaveLength(3);
      const [gone, failing, arriving] = claimed.map((c) => c.delivery);
      await deliveries.recordAttempt(gone!, afterAttempt(0, { status: 410, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(11)), at(11));
      await deliveries.recordAttempt(failing!, afterAttempt(0, { status: 503, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(12)), at(12));
      await deliveries.recordAttempt(arriving!, afterAttempt(0, { status: 200, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(13)), at(13));
      const byEvent = new Map((await deliveries.list(org, w.id, { limit: 10, after: null })).map((d) => [d.id, d.status]));
      expect([byEvent.get(gone!.id), byEvent.get(failing!.id), byEvent.get(arriving!.id)]).toEqual(['failed', 'cancelled', 'succeeded']);
    });

    it('recordAttempt with disableWebhook disables the webhook and cancels its other pending deliveries only', async () => {
      const org = newOrg('gone');
      const [w, sibling] = await stored(org, {}, {});
      for (let i = 0; i < 3; i++) await deliveries.fanOut(event(org, 'decision.made', `evt_${i}`), at(i));
      const succeeded = (await deliveriesOf(w.id))[2]!;
      await deliveries.recordAttempt({ id: succeeded.id, webhookId: w.id }, outcome(), at(5));

      const gone = (await deliveriesOf(w.id))[0]!;
      await deliveries.recordAttempt(
        { id: gone.id, webhookId: w.id },
        afterAttempt(0, { status: 410, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(10)),
        at(10),
      );

      expect(await webhooks.find(org, w.id)).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('410'), updatedAt: at(10) });
      expect((await deliveriesOf(w.id)).map((d) => [d.event_id, d.status, d.next_attempt_at])).toEqual([
        ['evt_0', 'failed', null],
        ['evt_1', 'cancelled', null],
        ['evt_2', 'succeeded', null],
      ]);
      expect((await deliveriesOf(sibling.id)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
      expect(await webhooks.find(org, sibling.id)).toMatchObject({ status: 'active' });
      // A disabled webhook gets no new deliveries.
      expect(await deliveries.fanOut(event(org), at(20))).toBe(1);
    });

    it('cancel ends a pending delivery and leaves a finished one alone', async () => {
      const org = newOrg('cancel');
      const [w] = await stored(org, {});
      await deliveries.fanOut(event(org, 'decision.made', 'evt_a'), at(0));
      await deliveries.fanOut(event(org, 'decision.made', 'evt_b'), at(0));
      const [a, b] = await deliveriesOf(w.id);
      await deliveries.recordAttempt({ id: b!.id, webhookId: w.id }, outcome(), at(1));
      await deliveries.cancel(a!.id);
      await deliveries.cancel(b!.id);
      expect((await deliveriesOf(w.id)).map((d) => d.status)).toEqual(['cancelled', 'succeeded']);
      expect(await deliveries.claimDue(10, 1000, at(100_000))).toEqual([]);
    });

    it('list: newest first, paged, filtered by status, scoped to org and webhook', async () => {
      const org = newOrg('dlist');
      const [w] = await stored(org, {});
      for (let i = 0; i < 5; i++) await deliveries.fanOut(event(org, 'decision.made', `evt_${i}`), at(i * 1000));
      const rows = await deliveriesOf(w.id);
      await deliveries.recordAttempt({ id: rows[1]!.id, webhookId: w.id }, outcome(), at(9000));
      const all: Delivery[] = [];
      let after: PageKey | null = null;
      for (;;) {
        const page: Delivery[] = await deliveries.list(org, w.id, { limit: 2, after });
        all.push(...page.slice(0, 2));
        if (page.length <= 2) break;
        after = { createdAt: page[1]!.createdAt, id: page[1]!.id };
      }
      expect(all.map((d) => d.eventId)).toEqual(['evt_4', 'evt_3', 'evt_2', 'evt_1', 'evt_0']);
      expect((await deliveries.list(org, w.id, { limit: 10, after: null, status: 'succeeded' })).map((d) => d.eventId)).toEqual(['evt_1']);
      expect((await deliveries.list(org, w.id, { limit: 10, after: null, status: 'pending' })).map((d) => d.eventId)).toEqual([
        'evt_4',
        'evt_3',
        'evt_2',
        'evt_0',
      ]);
      expect(await deliveries.list(newOrg('intruder'), w.id, { limit: 10, after: null })).toEqual([]);
    });

    it('a webhook with MAX_LEASED_PER_WEBHOOK attempts under way gets no more until some finish; others still do', async () => {
      const org = newOrg('fair');
      const slow = webhook(org);
      const other = webhook(org);
      await webhooks.create(slow);
      for (let i = 0; i < MAX_LEASED_PER_WEBHOOK + 10; i++) await deliveries.fanOut(event(org, 'decision.made', `evt_slow_${i}`), at(i));
      await webhooks.create(other);
      for (let i = 0; i < 3; i++) await deliveries.fanOut(event(org, 'decision.made', `evt_other_${i}`), at(100 + i));
      // `other` was created after the slow backlog: only the last three events reach both.
      const first = await deliveries.claimDue(100, 60_000, at(1_000));
      const perHook = (list: typeof first) => list.reduce((m, c) => m.set(c.webhook.id, (m.get(c.webhook.id) ?? 0) + 1), new Map<string, number>());
      expect(perHook(first).get(slow.id)).toBe(MAX_LEASED_PER_WEBHOOK);
      expect(perHook(first).get(other.id)).toBe(3);
      const again = await deliveries.claimDue(100, 60_000, at(1_001));
      expect(perHook(again).get(slow.id) ?? 0).toBe(0);
      const done = first.filter((c) => c.webhook.id === slow.id).slice(0, 5);
      for (const c of done) await deliveries.recordAttempt(c.delivery, outcome(), at(1_002));
      const more = await deliveries.claimDue(100, 60_000, at(1_003));
      expect(perHook(more).get(slow.id)).toBeGreaterThan(0);
      expect(perHook(more).get(slow.id)).toBeLessThanOrEqual(5);
    });

    it('nextDueAt is the earliest next attempt of any pending delivery, null when none', async () => {
      expect(await deliveries.nextDueAt()).toBeNull();
      const org = newOrg('next');
      const [w] = await stored(org, {});
      await deliveries.fanOut(event(org, 'decision.made', 'evt_a'), at(50_000));
      await deliveries.fanOut(event(org, 'decision.made', 'evt_b'), at(20_000));
      await deliveries.fanOut(event(org, 'decision.made', 'evt_c'), at(5_000));
      expect(await deliveries.nextDueAt()).toEqual(at(5_000));
      const c = (await deliveriesOf(w.id))[2]!;
      await deliveries.recordAttempt({ id: c.id, webhookId: w.id }, outcome(), at(6_000));
      expect(await deliveries.nextDueAt()).toEqual(at(20_000));
      // A leased delivery (another worker is on it) is not due before its lease ends: no busy polling.
      const leased = await deliveries.claimDue(1, 60_000, at(30_000));
      expect(leased.map((l) => l.delivery.eventId)).toEqual(['evt_b']);
      expect(await deliveries.nextDueAt()).toEqual(at(50_000));
      await webhooks.delete(org, w.id);
      expect(await deliveries.nextDueAt()).toBeNull();
    });
  });

  it('an unreachable database rejects every call with DependencyUnavailableError', async () => {
    const dead = openPostgresDatabase(DEAD_DATABASE_URL, schema, 2);
    others.push(dead);
    const w = new SqlWebhookRepository(dead);
    const d = new SqlDeliveryRepository(dead);
    const org = newOrg('dead');
    const calls: Promise<unknown>[] = [
      w.create(webhook(org)),
      w.find(org, 'whk_x'),
      w.list(org, { limit: 5, after: null }),
      w.delete(org, 'whk_x'),
      w.updateSecrets(org, 'whk_x', (s) => s, at(0)),
      d.fanOut(event(org), at(0)),
      d.claimDue(5, 1000, at(0)),
      d.recordAttempt({ id: 'whd_x', webhookId: 'whk_x' }, outcome({ disableWebhook: true }), at(0)),
      d.cancel('whd_x'),
      d.list(org, 'whk_x', { limit: 5, after: null }),
      d.nextDueAt(),
    ];
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});
