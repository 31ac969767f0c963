import { type PageKey } from '@igw/kernel';
import { atTestTime as at, uniqueOrgId as newOrg } from '@igw/persistence/testing';
import { afterAttempt, DEFAULT_RETRY_SCHEDULE_S, MAX_LEASED_PER_WEBHOOK, type Delivery } from '../../domain';
import { webhook, event, outcome, webhookRepositoriesUnderTest } from './sql-webhook.repository.fixture';

// Deliveries (fan-out, claims, attempts, cancel, list); webhooks: sql-webhook.repository.int-spec.ts.
describe('SqlWebhookRepository / SqlDeliveryRepository (PostgreSQL)', () => {
  const t = webhookRepositoriesUnderTest();
  const { deliveriesOf, stored, wipe } = t;

  describe('deliveries', () => {
    beforeEach(wipe);

    it('fanOut: one pending delivery per active webhook of that org subscribed to the type', async () => {
      const org = newOrg('fan');
      const subscribed = webhook(org, { events: ['approval.requested', 'decision.made'] });
      const otherType = webhook(org, { events: ['approval.requested'] });
      const disabled = webhook(org, { status: 'disabled', disabledReason: 'gone' });
      const otherOrg = webhook(newOrg('fan_other'));
      for (const w of [subscribed, otherType, disabled, otherOrg]) await t.webhooks.create(w);

      const e = event(org);
      expect(await t.deliveries.fanOut(e, at(5))).toBe(1);
      const list = await t.deliveries.list(org, subscribed.id, { limit: 10, after: null });
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
      expect(await t.deliveries.fanOut(event(org, 'mandate.revoked'), at(6))).toBe(0);
    });

    it('fanOut skips webhooks registered after the event occurred, give or take 60 s of clock difference', async () => {
      const org = newOrg('age');
      const [old, young] = await stored(org, { createdAt: at(100_000) }, { createdAt: at(300_000) });
      expect(await t.deliveries.fanOut(event(org, 'decision.made', 'evt_before_both', at(100_000 - 61_000).toISOString()), at(400_000))).toBe(0);
      expect(await t.deliveries.fanOut(event(org, 'decision.made', 'evt_between', at(300_000 - 61_000).toISOString()), at(400_000))).toBe(1);
      expect(await t.deliveries.fanOut(event(org, 'decision.made', 'evt_near_young', at(300_000 - 59_000).toISOString()), at(400_000))).toBe(2);
      expect((await deliveriesOf(old.id)).map((d) => d.event_id).sort()).toEqual(['evt_between', 'evt_near_young']);
      expect((await deliveriesOf(young.id)).map((d) => d.event_id)).toEqual(['evt_near_young']);
    });

    it('fanOut is idempotent: the same event twice (even concurrently) creates one delivery per webhook', async () => {
      const org = newOrg('idem');
      const [a, b] = await stored(org, {}, {});
      const e = event(org);
      expect(await t.deliveries.fanOut(e, at(0))).toBe(2);
      expect(await t.deliveries.fanOut(e, at(1))).toBe(0);
      const counts = await Promise.all([t.deliveries.fanOut(e, at(2)), t.deliveries.fanOut(e, at(2))]);
      expect(counts).toEqual([0, 0]);
      const e2 = event(org);
      const racing = await Promise.all([t.deliveries.fanOut(e2, at(3)), t.deliveries.fanOut(e2, at(3)), t.deliveries.fanOut(e2, at(3))]);
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
      await t.deliveries.fanOut(early, at(0));
      await t.deliveries.fanOut(later, at(10));
      await t.deliveries.fanOut(future, at(60_000));
      const done = event(org, 'decision.made', 'evt_0_done');
      await t.deliveries.fanOut(done, at(0));
      const [doneRow] = (await deliveriesOf(w.id)).filter((d) => d.event_id === done.id);
      await t.deliveries.recordAttempt({ id: doneRow!.id, webhookId: w.id }, outcome(), at(1));

      expect(await t.deliveries.claimDue(10, 30_000, at(-1))).toEqual([]);
      const claimed = await t.deliveries.claimDue(10, 30_000, at(20));
      expect(claimed.map((c) => c.delivery.eventId)).toEqual([early.id, later.id]);
      expect(claimed[0]!.webhook).toMatchObject({ id: w.id, url: w.url, status: 'active', secrets: w.secrets });
      expect(claimed[0]!.delivery).toMatchObject({ status: 'pending', attempts: 0, body: early.body, webhookId: w.id, orgId: org });
      const rows = await deliveriesOf(w.id);
      expect(rows.filter((r) => r.lease_until !== null).map((r) => r.event_id)).toEqual([early.id, later.id]);
      expect(rows.find((r) => r.event_id === early.id)!.lease_until).toEqual(at(30_020));

      // The limit is respected.
      expect(await t.deliveries.claimDue(1, 30_000, at(120_000))).toHaveLength(1);
    });

    it('two concurrent claimers never get the same delivery (SKIP LOCKED)', async () => {
      const org = newOrg('skip');
      const hooks = [webhook(org), webhook(org), webhook(org), webhook(org)];
      for (const w of hooks) await t.webhooks.create(w);
      for (let i = 0; i < 15; i++) await t.deliveries.fanOut(event(org), at(i));
      // 60 due deliveries, claimed by 6 workers at once in batches of 8, repeatedly.
      const taken: string[] = [];
      for (let round = 0; round < 4; round++) {
        const batches = await Promise.all(Array.from({ length: 6 }, () => t.deliveries.claimDue(8, 60_000, at(1000))));
        for (const b of batches) taken.push(...b.map((c) => c.delivery.id));
      }
      expect(taken).toHaveLength(60);
      expect(new Set(taken).size).toBe(60);
      expect(await t.deliveries.claimDue(100, 60_000, at(1000))).toEqual([]);
    });

    it('a lease hides a claimed delivery until it runs out; a recorded attempt ends it', async () => {
      const org = newOrg('lease');
      const [w] = await stored(org, {});
      await t.deliveries.fanOut(event(org), at(0));
      const [first] = await t.deliveries.claimDue(5, 10_000, at(0));
      expect(first).toBeDefined();
      expect(await t.deliveries.claimDue(5, 10_000, at(5_000))).toEqual([]);
      expect(await t.deliveries.claimDue(5, 10_000, at(10_000))).toEqual([]);
      // The worker died: the lease ran out, another worker takes it.
      const [again] = await t.deliveries.claimDue(5, 10_000, at(10_001));
      expect(again!.delivery.id).toBe(first!.delivery.id);

      // A failed attempt stores the retry and ends the lease: due again at its next attempt, not later.
      const o = afterAttempt(0, { status: 503, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(10_002));
      await t.deliveries.recordAttempt(again!.delivery, o, at(10_002));
      const [row] = await deliveriesOf(w.id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lease_until: null, next_attempt_at: at(15_002) });
      expect(await t.deliveries.claimDue(5, 10_000, at(15_001))).toEqual([]);
      const [third] = await t.deliveries.claimDue(5, 60_000, at(15_002));
      expect(third!.delivery).toMatchObject({ id: first!.delivery.id, attempts: 1, lastResponseCode: 503, lastError: 'endpoint answered 503' });
    });

    it('recordAttempt stores every field of the outcome', async () => {
      const org = newOrg('rec');
      const [w] = await stored(org, {});
      await t.deliveries.fanOut(event(org), at(0));
      const [c] = await t.deliveries.claimDue(5, 10_000, at(0));
      await t.deliveries.recordAttempt(c!.delivery, outcome({ attempts: 3, lastResponseCode: 204, deliveredAt: at(77) }), at(77));
      const [d] = await t.deliveries.list(org, w.id, { limit: 5, after: null });
      expect(d).toMatchObject({ status: 'succeeded', attempts: 3, lastResponseCode: 204, lastError: null, nextAttemptAt: null, deliveredAt: at(77) });
      // A finished delivery is not reopened by a late outcome.
      await t.deliveries.recordAttempt(c!.delivery, outcome({ status: 'pending', attempts: 4, lastResponseCode: 500, deliveredAt: null }), at(78));
      expect((await t.deliveries.list(org, w.id, { limit: 5, after: null }))[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_exhaust'), at(80));
      const [e] = await t.deliveries.claimDue(5, 10_000, at(80));
      await t.deliveries.recordAttempt(
        e!.delivery,
        outcome({ status: 'exhausted', attempts: 7, lastResponseCode: null, lastError: 'no answer within 10000 ms', deliveredAt: null }),
        at(81),
      );
      expect((await t.deliveries.list(org, w.id, { limit: 5, after: null })).find((d) => d.eventId === 'evt_exhaust')).toMatchObject({
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
      for (let i = 0; i < 3; i++) await t.deliveries.fanOut(event(org, 'decision.made', `evt_late_${i}`), at(i));
      const claimed = await t.deliveries.claimDue(5, 10_000, at(10));
      expect(claimed).toHaveLength(3);
      const [gone, failing, arriving] = claimed.map((c) => c.delivery);
      await t.deliveries.recordAttempt(gone!, afterAttempt(0, { status: 410, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(11)), at(11));
      await t.deliveries.recordAttempt(failing!, afterAttempt(0, { status: 503, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(12)), at(12));
      await t.deliveries.recordAttempt(arriving!, afterAttempt(0, { status: 200, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(13)), at(13));
      const byEvent = new Map((await t.deliveries.list(org, w.id, { limit: 10, after: null })).map((d) => [d.id, d.status]));
      expect([byEvent.get(gone!.id), byEvent.get(failing!.id), byEvent.get(arriving!.id)]).toEqual(['failed', 'cancelled', 'succeeded']);
    });

    it('recordAttempt with disableWebhook disables the webhook and cancels its other pending deliveries only', async () => {
      const org = newOrg('gone');
      const [w, sibling] = await stored(org, {}, {});
      for (let i = 0; i < 3; i++) await t.deliveries.fanOut(event(org, 'decision.made', `evt_${i}`), at(i));
      const succeeded = (await deliveriesOf(w.id))[2]!;
      await t.deliveries.recordAttempt({ id: succeeded.id, webhookId: w.id }, outcome(), at(5));

      const gone = (await deliveriesOf(w.id))[0]!;
      await t.deliveries.recordAttempt(
        { id: gone.id, webhookId: w.id },
        afterAttempt(0, { status: 410, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(10)),
        at(10),
      );

      expect(await t.webhooks.find(org, w.id)).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('410'), updatedAt: at(10) });
      expect((await deliveriesOf(w.id)).map((d) => [d.event_id, d.status, d.next_attempt_at])).toEqual([
        ['evt_0', 'failed', null],
        ['evt_1', 'cancelled', null],
        ['evt_2', 'succeeded', null],
      ]);
      expect((await deliveriesOf(sibling.id)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
      expect(await t.webhooks.find(org, sibling.id)).toMatchObject({ status: 'active' });
      // A disabled webhook gets no new deliveries.
      expect(await t.deliveries.fanOut(event(org), at(20))).toBe(1);
    });

    it('cancel ends a pending delivery and leaves a finished one alone', async () => {
      const org = newOrg('cancel');
      const [w] = await stored(org, {});
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_a'), at(0));
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_b'), at(0));
      const [a, b] = await deliveriesOf(w.id);
      await t.deliveries.recordAttempt({ id: b!.id, webhookId: w.id }, outcome(), at(1));
      await t.deliveries.cancel(a!.id);
      await t.deliveries.cancel(b!.id);
      expect((await deliveriesOf(w.id)).map((d) => d.status)).toEqual(['cancelled', 'succeeded']);
      expect(await t.deliveries.claimDue(10, 1000, at(100_000))).toEqual([]);
    });

    it('list: newest first, paged, filtered by status, scoped to org and webhook', async () => {
      const org = newOrg('dlist');
      const [w] = await stored(org, {});
      for (let i = 0; i < 5; i++) await t.deliveries.fanOut(event(org, 'decision.made', `evt_${i}`), at(i * 1000));
      const rows = await deliveriesOf(w.id);
      await t.deliveries.recordAttempt({ id: rows[1]!.id, webhookId: w.id }, outcome(), at(9000));
      const all: Delivery[] = [];
      let after: PageKey | null = null;
      for (;;) {
        const page: Delivery[] = await t.deliveries.list(org, w.id, { limit: 2, after });
        all.push(...page.slice(0, 2));
        if (page.length <= 2) break;
        after = { createdAt: page[1]!.createdAt, id: page[1]!.id };
      }
      expect(all.map((d) => d.eventId)).toEqual(['evt_4', 'evt_3', 'evt_2', 'evt_1', 'evt_0']);
      expect((await t.deliveries.list(org, w.id, { limit: 10, after: null, status: 'succeeded' })).map((d) => d.eventId)).toEqual(['evt_1']);
      expect((await t.deliveries.list(org, w.id, { limit: 10, after: null, status: 'pending' })).map((d) => d.eventId)).toEqual([
        'evt_4',
        'evt_3',
        'evt_2',
        'evt_0',
      ]);
      expect(await t.deliveries.list(newOrg('intruder'), w.id, { limit: 10, after: null })).toEqual([]);
    });

    it('a webhook with MAX_LEASED_PER_WEBHOOK attempts under way gets no more until some finish; others still do', async () => {
      const org = newOrg('fair');
      const slow = webhook(org);
      const other = webhook(org);
      await t.webhooks.create(slow);
      for (let i = 0; i < MAX_LEASED_PER_WEBHOOK + 10; i++) await t.deliveries.fanOut(event(org, 'decision.made', `evt_slow_${i}`), at(i));
      await t.webhooks.create(other);
      for (let i = 0; i < 3; i++) await t.deliveries.fanOut(event(org, 'decision.made', `evt_other_${i}`), at(100 + i));
      // `other` was created after the slow backlog: only the last three events reach both.
      const first = await t.deliveries.claimDue(100, 60_000, at(1_000));
      const perHook = (list: typeof first) => list.reduce((m, c) => m.set(c.webhook.id, (m.get(c.webhook.id) ?? 0) + 1), new Map<string, number>());
      expect(perHook(first).get(slow.id)).toBe(MAX_LEASED_PER_WEBHOOK);
      expect(perHook(first).get(other.id)).toBe(3);
      const again = await t.deliveries.claimDue(100, 60_000, at(1_001));
      expect(perHook(again).get(slow.id) ?? 0).toBe(0);
      const done = first.filter((c) => c.webhook.id === slow.id).slice(0, 5);
      for (const c of done) await t.deliveries.recordAttempt(c.delivery, outcome(), at(1_002));
      const more = await t.deliveries.claimDue(100, 60_000, at(1_003));
      expect(perHook(more).get(slow.id)).toBeGreaterThan(0);
      expect(perHook(more).get(slow.id)).toBeLessThanOrEqual(5);
    });

    it('nextDueAt is the earliest next attempt of any pending delivery, null when none', async () => {
      expect(await t.deliveries.nextDueAt()).toBeNull();
      const org = newOrg('next');
      const [w] = await stored(org, {});
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_a'), at(50_000));
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_b'), at(20_000));
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_c'), at(5_000));
      expect(await t.deliveries.nextDueAt()).toEqual(at(5_000));
      const c = (await deliveriesOf(w.id))[2]!;
      await t.deliveries.recordAttempt({ id: c.id, webhookId: w.id }, outcome(), at(6_000));
      expect(await t.deliveries.nextDueAt()).toEqual(at(20_000));
      // A leased delivery (another worker is on it) is not due before its lease ends: no busy polling.
      const leased = await t.deliveries.claimDue(1, 60_000, at(30_000));
      expect(leased.map((l) => l.delivery.eventId)).toEqual(['evt_b']);
      expect(await t.deliveries.nextDueAt()).toEqual(at(50_000));
      await t.webhooks.delete(org, w.id);
      expect(await t.deliveries.nextDueAt()).toBeNull();
    });
  });
});
