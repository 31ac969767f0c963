import { webhooksKey } from '@igw/events';
import { DependencyUnavailableError, type PageKey } from '@igw/kernel';
import { openPostgresDatabase } from '@igw/persistence';
import { DEAD_DATABASE_URL, atTestTime as at, uniqueOrgId as newOrg } from '@igw/persistence/testing';
import { afterAttempt, DEFAULT_RETRY_SCHEDULE_S, type WebhookSecret } from '../../domain';
import { SqlDeliveryRepository, SqlWebhookRepository } from './sql-webhook.repository';
import { webhook, event, outcome, webhookRepositoriesUnderTest } from './sql-webhook.repository.fixture';

// Subscriptions and webhooks, and an unreachable database; deliveries: sql-delivery.repository.int-spec.ts.
describe('SqlWebhookRepository / SqlDeliveryRepository (PostgreSQL)', () => {
  const t = webhookRepositoriesUnderTest();
  const { deliveriesOf, stored } = t;

  describe('subscriptions (the counter behind the in-memory copies)', () => {
    it('create, delete and a 410 disable bump the org counter in their transaction and advance the board after commit', async () => {
      const org = newOrg('subs');
      expect(await t.webhooks.subscriptions(org)).toEqual({ version: 0, types: [] });
      const a = webhook(org, { events: ['decision.made', 'intent.evaluated'] });
      const b = webhook(org, { events: ['decision.made'] });
      await t.webhooks.create(a);
      expect(await t.board.current(webhooksKey(org))).toBe(1);
      await t.webhooks.create(b);
      expect(await t.webhooks.subscriptions(org)).toEqual({ version: 2, types: expect.arrayContaining(['decision.made', 'intent.evaluated']) });
      expect((await t.webhooks.subscriptions(org)).types).toHaveLength(2);
      expect(await t.webhooks.delete(org, a.id)).toBe(true);
      expect(await t.webhooks.delete(org, a.id)).toBe(false);
      expect(await t.webhooks.subscriptions(org)).toEqual({ version: 3, types: ['decision.made'] });
      expect(await t.board.current(webhooksKey(org))).toBe(3);
      await t.deliveries.fanOut(event(org, 'decision.made', 'evt_subs'), at(0));
      const [c] = await t.deliveries.claimDue(5, 10_000, at(1));
      await t.deliveries.recordAttempt(c!.delivery, afterAttempt(0, { status: 410, retryAfterS: null }, DEFAULT_RETRY_SCHEDULE_S, at(2)), at(2));
      expect(await t.webhooks.subscriptions(org)).toEqual({ version: 4, types: [] });
      expect(await t.board.current(webhooksKey(org))).toBe(4);
      expect(await t.webhooks.enable(org, b.id, at(3))).toMatchObject({ status: 'active', disabledReason: null });
      expect(await t.webhooks.subscriptions(org)).toEqual({ version: 5, types: ['decision.made'] });
      expect(await t.board.current(webhooksKey(org))).toBe(5);
      expect(await t.webhooks.enable(newOrg('x'), b.id, at(4))).toBeNull();
      expect(await t.webhooks.subscriptions(newOrg('none'))).toEqual({ version: 0, types: [] });
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
      await t.webhooks.create(w);
      expect(await t.webhooks.find(org, w.id)).toEqual(w);
      expect(await t.webhooks.find(newOrg('other'), w.id)).toBeNull();
      expect(await t.webhooks.find(org, 'whk_missing')).toBeNull();
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
      for (const w of mine) await t.webhooks.create(w);
      await t.webhooks.create(webhook(newOrg('list_other')));
      const expected = [...mine].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((w) => w.id);

      const seen: string[] = [];
      let after: PageKey | null = null;
      for (let page = 0; page < 5; page++) {
        const rows = await t.webhooks.list(org, { limit: 2, after });
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
      expect(await t.deliveries.fanOut(event(org), at(0))).toBe(2);
      expect(await t.deliveries.fanOut(event(org), at(0))).toBe(2);
      expect(await deliveriesOf(w.id)).toHaveLength(2);

      expect(await t.webhooks.delete(newOrg('intruder'), w.id)).toBe(false);
      expect(await t.webhooks.find(org, w.id)).not.toBeNull();
      expect(await t.webhooks.delete(org, w.id)).toBe(true);
      expect(await t.webhooks.find(org, w.id)).toBeNull();
      expect(await deliveriesOf(w.id)).toEqual([]);
      expect(await deliveriesOf(keep.id)).toHaveLength(2);
      expect(await t.webhooks.delete(org, w.id)).toBe(false);
    });

    it('updateSecrets replaces the secrets and updated_at; null (change not called) when not found', async () => {
      const org = newOrg('sec');
      const [w] = await stored(org, {});
      const fresh: WebhookSecret = { id: 'whs_new', sealed: 'sealed-new', createdAt: at(10), expiresAt: null };
      const updated = await t.webhooks.updateSecrets(org, w.id, (current) => [fresh, ...current.map((s) => ({ ...s, expiresAt: at(99) }))], at(10));
      expect(updated).toEqual({ ...w, secrets: [fresh, { ...w.secrets[0]!, expiresAt: at(99) }], updatedAt: at(10) });
      expect(await t.webhooks.find(org, w.id)).toEqual(updated);

      const change = jest.fn((s: WebhookSecret[]) => s);
      expect(await t.webhooks.updateSecrets(org, 'whk_missing', change, at(11))).toBeNull();
      expect(await t.webhooks.updateSecrets(newOrg('intruder'), w.id, change, at(11))).toBeNull();
      expect(change).not.toHaveBeenCalled();
    });

    it('concurrent rotations serialize: 10 at once, each sees the secrets the previous one left', async () => {
      const org = newOrg('race');
      const [w] = await stored(org, {});
      const seen: string[][] = [];
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.webhooks.updateSecrets(
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
      const final = await t.webhooks.find(org, w.id);
      expect(final!.secrets).toHaveLength(11);
      expect(new Set(final!.secrets.map((s) => s.id)).size).toBe(11);
    });
  });

  it('an unreachable database rejects every call with DependencyUnavailableError', async () => {
    const dead = openPostgresDatabase(DEAD_DATABASE_URL, t.schema, 2);
    t.others.push(dead);
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
