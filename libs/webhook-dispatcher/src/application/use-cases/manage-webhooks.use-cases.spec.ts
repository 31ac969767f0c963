import { AppError, FixedClock, type Caller, type PageKey } from '@igw/kernel';
import { RecordingSealer } from '@igw/testing/unit';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { ROTATION_OVERLAP_MS, type AttemptOutcome, type Delivery, type DeliveryStatus, type Webhook, type WebhookSecret } from '../../domain';
import type { ClaimedDelivery, DeliveryRepository, WebhookRepository } from '../ports/webhook.repository.port';
import type { OutgoingWebhook, WebhookSender } from '../ports/webhook-sender.port';
import { openSecret } from '../webhook-secrets';
import { EnableWebhookUseCase } from './enable-webhook.use-case';
import { ListDeliveriesUseCase } from './list-deliveries.use-case';
import { RegisterWebhookUseCase } from './register-webhook.use-case';
import { RotateWebhookSecretUseCase } from './rotate-webhook-secret.use-case';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const caller = (orgId = 'org_a'): Caller => ({ orgId, keyId: 'key_admin', scope: 'admin' as Caller['scope'] });

class MemoryWebhooks implements WebhookRepository {
  readonly rows = new Map<string, Webhook>();
  readonly calls: string[] = [];
  async create(w: Webhook): Promise<void> {
    this.calls.push('create');
    this.rows.set(w.id, structuredClone(w));
  }
  async find(orgId: string, id: string): Promise<Webhook | null> {
    this.calls.push('find');
    const w = this.rows.get(id);
    return w && w.orgId === orgId ? structuredClone(w) : null;
  }
  async list(orgId: string): Promise<Webhook[]> {
    return [...this.rows.values()].filter((w) => w.orgId === orgId);
  }
  async delete(orgId: string, id: string): Promise<boolean> {
    const w = this.rows.get(id);
    return !!w && w.orgId === orgId && this.rows.delete(id);
  }
  async updateSecrets(orgId: string, id: string, change: (current: WebhookSecret[]) => WebhookSecret[], now: Date): Promise<Webhook | null> {
    this.calls.push('updateSecrets');
    const w = this.rows.get(id);
    if (!w || w.orgId !== orgId) return null;
    const updated = { ...w, secrets: change(structuredClone(w.secrets)), updatedAt: now };
    this.rows.set(id, updated);
    return structuredClone(updated);
  }
  async enable(orgId: string, id: string, now: Date): Promise<Webhook | null> {
    const w = this.rows.get(id);
    if (!w || w.orgId !== orgId) return null;
    const updated = { ...w, status: 'active' as const, disabledReason: null, updatedAt: now };
    this.rows.set(id, updated);
    return structuredClone(updated);
  }
  async subscriptions(orgId: string): Promise<{ version: number; types: string[] }> {
    const types = [...this.rows.values()].filter((w) => w.orgId === orgId && w.status === 'active').flatMap((w) => w.events);
    return { version: 0, types: [...new Set(types)] };
  }
  async subscribedOrgIds(): Promise<string[]> {
    return [...new Set([...this.rows.values()].filter((w) => w.status === 'active').map((w) => w.orgId))].sort();
  }
}

class FakeSender implements WebhookSender {
  problem: string | null = null;
  readonly asked: string[] = [];
  async send(_: OutgoingWebhook) {
    return { status: 200, retryAfterS: null };
  }
  async destinationProblem(url: string): Promise<string | null> {
    this.asked.push(url);
    return this.problem;
  }
}

class MemoryDeliveries implements DeliveryRepository {
  rows: Delivery[] = [];
  readonly listed: { orgId: string; webhookId: string; page: { limit: number; after: PageKey | null; status?: DeliveryStatus } }[] = [];
  async fanOut(): Promise<number> {
    throw new Error('not used');
  }
  async claimDue(): Promise<ClaimedDelivery[]> {
    throw new Error('not used');
  }
  async recordAttempt(_d: Pick<Delivery, 'id' | 'webhookId'>, _o: AttemptOutcome): Promise<void> {
    throw new Error('not used');
  }
  async cancel(): Promise<void> {
    throw new Error('not used');
  }
  async list(orgId: string, webhookId: string, page: { limit: number; after: PageKey | null; status?: DeliveryStatus }): Promise<Delivery[]> {
    this.listed.push({ orgId, webhookId, page });
    return this.rows.filter((d) => d.orgId === orgId && d.webhookId === webhookId && (!page.status || d.status === page.status)).slice(0, page.limit + 1);
  }
  async nextDueAt(): Promise<Date | null> {
    return null;
  }
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

function setup() {
  const webhooks = new MemoryWebhooks();
  const deliveries = new MemoryDeliveries();
  const sender = new FakeSender();
  const sealer = new RecordingSealer();
  const clock = new FixedClock(NOW);
  return {
    webhooks,
    deliveries,
    sender,
    sealer,
    clock,
    register: new RegisterWebhookUseCase(webhooks, sender, sealer, clock),
    rotate: new RotateWebhookSecretUseCase(webhooks, sealer, clock),
    listDeliveries: new ListDeliveriesUseCase(webhooks, deliveries),
    enable: new EnableWebhookUseCase(webhooks, clock),
  };
}

const GOOD = { url: 'https://hooks.example.com/igw', events: ['decision.made', 'approval.requested'], description: 'ops' };

describe('RegisterWebhookUseCase', () => {
  it.each([
    ['not a url', 'url must be an absolute http(s) URL'],
    ['ftp://hooks.example.com/x', 'url must use https (or http)'],
    ['https://u:p@hooks.example.com/x', 'url must not carry credentials'],
  ])('a bad url %p is a 400 naming url, before anything else is asked', async (url, message) => {
    const t = setup();
    const err = await rejection(t.register.execute(caller(), { ...GOOD, url }));
    expect(err).toMatchObject({ kind: 'invalid', code: 'invalid_request', message, extra: { details: [{ path: 'url', message }] } });
    expect(t.sender.asked).toEqual([]);
    expect(t.webhooks.calls).toEqual([]);
    expect(t.sealer.sealed).toEqual([]);
  });

  it('an unknown event type is a 400 naming events and the type', async () => {
    const t = setup();
    const err = await rejection(t.register.execute(caller(), { ...GOOD, events: ['decision.made', 'intention.created'] }));
    expect(err.kind).toBe('invalid');
    expect(err.message).toContain('intention.created');
    expect(err.extra['details']).toEqual([{ path: 'events', message: err.message }]);
    expect(t.sender.asked).toEqual([]);
    expect(t.webhooks.calls).toEqual([]);
  });

  it('internal topic names are not event types', async () => {
    const t = setup();
    const err = await rejection(t.register.execute(caller(), { ...GOOD, events: ['proxy.decision.made.v1'] }));
    expect(err.extra['details']).toEqual([{ path: 'events', message: expect.stringContaining('proxy.decision.made.v1') }]);
  });

  it("the sender's destination problem is a 400 naming url", async () => {
    const t = setup();
    t.sender.problem = 'url host internal.example resolves to 10.0.0.5, which is not a public address';
    const err = await rejection(t.register.execute(caller(), GOOD));
    expect(err).toMatchObject({ kind: 'invalid', message: t.sender.problem, extra: { details: [{ path: 'url', message: t.sender.problem }] } });
    expect(t.sender.asked).toEqual([GOOD.url]);
    expect(t.webhooks.calls).toEqual([]);
  });

  it("stores an active webhook of the caller's org and shows a whsec_ secret of 24 random bytes once, stored only sealed", async () => {
    const t = setup();
    const created = await t.register.execute(caller('org_reg'), { ...GOOD, events: ['decision.made', 'decision.made', 'approval.requested'] });

    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(() => new StandardWebhook(created.secret)).not.toThrow();
    expect(created).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: GOOD.url,
      events: ['decision.made', 'approval.requested'],
      description: 'ops',
      status: 'active',
      disabled_reason: null,
      created_at: NOW.toISOString(),
      secret: created.secret,
    });

    const stored = t.webhooks.rows.get(created.id)!;
    expect(stored).toMatchObject({ orgId: 'org_reg', status: 'active', disabledReason: null, createdAt: NOW, updatedAt: NOW });
    expect(stored.secrets).toHaveLength(1);
    expect(stored.secrets[0]).toEqual({ id: expect.stringMatching(/^whs_/), sealed: 'sealed#1', createdAt: NOW, expiresAt: null });
    // The sealer saw the plain secret, bound to this webhook and secret; nothing stored carries it.
    expect(t.sealer.sealed).toEqual([{ plain: created.secret, aad: `webhook:${created.id}:${stored.secrets[0]!.id}`, sealed: 'sealed#1' }]);
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice('whsec_'.length));
    expect(openSecret(t.sealer, created.id, stored.secrets[0]!)).toBe(created.secret);
  });

  it('every registration gets its own secret; description defaults to null', async () => {
    const t = setup();
    const a = await t.register.execute(caller(), { url: GOOD.url, events: ['decision.made'] });
    const b = await t.register.execute(caller(), { url: GOOD.url, events: ['decision.made'] });
    expect(a.secret).not.toBe(b.secret);
    expect(a.id).not.toBe(b.id);
    expect(a.description).toBeNull();
  });

  it('accepts every public event type', async () => {
    const t = setup();
    const created = await t.register.execute(caller(), { url: GOOD.url, events: [...WEBHOOK_EVENT_TYPES] });
    expect(created.events).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(WEBHOOK_EVENT_TYPES).toEqual(
      expect.arrayContaining([
        'intention.published',
        'intent.evaluated',
        'approval.requested',
        'approval.approved',
        'approval.denied',
        'approval.expired',
        'mandate.dispensed',
        'mandate.refreshed',
        'mandate.revoked',
        'decision.made',
      ]),
    );
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(10);
  });
});

describe('RotateWebhookSecretUseCase', () => {
  it('404 for an unknown webhook, and for a webhook of another org', async () => {
    const t = setup();
    expect(await rejection(t.rotate.execute(caller(), 'whk_missing'))).toMatchObject({ kind: 'not_found' });
    const created = await t.register.execute(caller('org_owner'), GOOD);
    expect(await rejection(t.rotate.execute(caller('org_other'), created.id))).toMatchObject({ kind: 'not_found' });
    expect(t.webhooks.rows.get(created.id)!.secrets).toHaveLength(1);
  });

  it('returns a new secret; the previous one keeps signing for 24 h; both are stored sealed', async () => {
    const t = setup();
    const created = await t.register.execute(caller(), GOOD);
    t.clock.advance(3600_000);
    const rotatedAt = t.clock.now();
    const rotated = await t.rotate.execute(caller(), created.id);

    expect(rotated).toEqual({
      id: created.id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: new Date(rotatedAt.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    });
    expect(Buffer.from(rotated.secret.slice(6), 'base64')).toHaveLength(24);
    expect(rotated.secret).not.toBe(created.secret);

    const secrets = t.webhooks.rows.get(created.id)!.secrets;
    expect(secrets).toHaveLength(2);
    expect(secrets[0]).toMatchObject({ createdAt: rotatedAt, expiresAt: null });
    expect(secrets[1]).toMatchObject({ createdAt: NOW, expiresAt: new Date(rotatedAt.getTime() + ROTATION_OVERLAP_MS) });
    expect(secrets.map((s) => openSecret(t.sealer, created.id, s))).toEqual([rotated.secret, created.secret]);
    expect(JSON.stringify(secrets)).not.toContain(rotated.secret);
  });
});

describe('EnableWebhookUseCase', () => {
  it("re-activates a disabled webhook of the caller's org; 404 for another org", async () => {
    const t = setup();
    const created = await t.register.execute(caller(), GOOD);
    t.webhooks.rows.set(created.id, { ...t.webhooks.rows.get(created.id)!, status: 'disabled', disabledReason: 'the endpoint answered 410 Gone' });
    expect(await rejection(t.enable.execute(caller('org_other'), created.id))).toMatchObject({ kind: 'not_found' });
    expect(t.webhooks.rows.get(created.id)!.status).toBe('disabled');
    expect(await t.enable.execute(caller(), created.id)).toMatchObject({ id: created.id, status: 'active', disabled_reason: null });
  });
});

describe('ListDeliveriesUseCase', () => {
  const delivery = (orgId: string, webhookId: string, n: number, status: DeliveryStatus = 'pending'): Delivery => ({
    id: `whd_${n}`,
    orgId,
    webhookId,
    eventId: `evt_${n}`,
    eventType: 'decision.made',
    body: '{}',
    status,
    attempts: 0,
    lastResponseCode: null,
    lastError: null,
    nextAttemptAt: NOW,
    createdAt: new Date(NOW.getTime() - n * 1000),
    deliveredAt: null,
  });

  it('404 for a webhook of another org (its deliveries are never read)', async () => {
    const t = setup();
    const created = await t.register.execute(caller('org_owner'), GOOD);
    t.deliveries.rows = [delivery('org_owner', created.id, 1)];
    expect(await rejection(t.listDeliveries.execute(caller('org_intruder'), created.id, {}))).toMatchObject({ kind: 'not_found' });
    expect(await rejection(t.listDeliveries.execute(caller('org_owner'), 'whk_unknown', {}))).toMatchObject({ kind: 'not_found' });
    expect(t.deliveries.listed).toEqual([]);
  });

  it("lists the owner's deliveries, paged, filtered by status", async () => {
    const t = setup();
    const created = await t.register.execute(caller('org_owner'), GOOD);
    t.deliveries.rows = [delivery('org_owner', created.id, 1, 'succeeded'), delivery('org_owner', created.id, 2), delivery('org_owner', created.id, 3)];
    const page = await t.listDeliveries.execute(caller('org_owner'), created.id, { limit: '2' });
    expect(page.data.map((d) => d.id)).toEqual(['whd_1', 'whd_2']);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.data[0]).toEqual({
      id: 'whd_1',
      event_id: 'evt_1',
      event_type: 'decision.made',
      status: 'succeeded',
      attempts: 0,
      last_response_code: null,
      last_error: null,
      next_attempt_at: NOW.toISOString(),
      created_at: new Date(NOW.getTime() - 1000).toISOString(),
      delivered_at: null,
    });
    const pending = await t.listDeliveries.execute(caller('org_owner'), created.id, { status: 'pending' });
    expect(pending.data.map((d) => d.id)).toEqual(['whd_2', 'whd_3']);
    expect(t.deliveries.listed.at(-1)).toMatchObject({ orgId: 'org_owner', webhookId: created.id, page: { status: 'pending' } });
  });

  it('an unknown status is a 400 naming status', async () => {
    const t = setup();
    const created = await t.register.execute(caller(), GOOD);
    const err = await rejection(t.listDeliveries.execute(caller(), created.id, { status: 'delivered' }));
    expect(err).toMatchObject({ kind: 'invalid', extra: { details: [{ path: 'status', message: expect.stringContaining('pending') }] } });
  });
});
