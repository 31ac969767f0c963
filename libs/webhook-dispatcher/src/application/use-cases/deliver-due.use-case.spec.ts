import { Logger } from '@nestjs/common';
import { FixedClock } from '@igw/kernel';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { webhookBody } from '../webhook-event-types';
import { DEFAULT_RETRY_SCHEDULE_S, type AttemptOutcome, type AttemptResult, type Delivery, type Webhook, type WebhookSecret } from '../../domain';
import type { ClaimedDelivery, DeliveryRepository } from '../ports/webhook.repository.port';
import type { OutgoingWebhook, WebhookSender } from '../ports/webhook-sender.port';
import type { SecretSealer } from '../webhook-secrets';
import { DeliverDueUseCase, type DeliverySettings } from './deliver-due.use-case';

const H = 3600_000;

/** Seals reversibly (and checks the binding), so tests can tell the plain secret from the stored one. */
class FakeSealer implements SecretSealer {
  readonly opened: string[] = [];
  seal(plain: Buffer, aad: string): string {
    return `sealed:${Buffer.from(JSON.stringify({ plain: plain.toString(), aad })).toString('base64')}`;
  }
  open(sealed: string, aad: string): Buffer {
    this.opened.push(aad);
    if (!sealed.startsWith('sealed:')) throw new Error('unsupported state or unable to authenticate data');
    const { plain, aad: bound } = JSON.parse(Buffer.from(sealed.slice(7), 'base64').toString()) as { plain: string; aad: string };
    if (bound !== aad) throw new Error('unsupported state or unable to authenticate data');
    return Buffer.from(plain);
  }
}

class FakeDeliveries implements DeliveryRepository {
  queue: ClaimedDelivery[] = [];
  readonly claims: { limit: number; leaseMs: number; now: Date }[] = [];
  readonly recorded: { delivery: Pick<Delivery, 'id' | 'webhookId'>; outcome: AttemptOutcome; now: Date }[] = [];
  readonly cancelled: string[] = [];
  async fanOut(): Promise<number> {
    throw new Error('not used');
  }
  async claimDue(limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]> {
    this.claims.push({ limit, leaseMs, now });
    return this.queue.splice(0, limit);
  }
  async recordAttempt(delivery: Pick<Delivery, 'id' | 'webhookId'>, outcome: AttemptOutcome, now: Date): Promise<void> {
    this.recorded.push({ delivery, outcome, now });
  }
  async cancel(deliveryId: string): Promise<void> {
    this.cancelled.push(deliveryId);
  }
  async list(): Promise<Delivery[]> {
    return [];
  }
  async nextDueAt(): Promise<Date | null> {
    return null;
  }
}

class FakeSender implements WebhookSender {
  readonly sent: OutgoingWebhook[] = [];
  answer: (out: OutgoingWebhook) => AttemptResult | Promise<AttemptResult> = () => ({ status: 200, retryAfterS: null });
  async send(out: OutgoingWebhook): Promise<AttemptResult> {
    this.sent.push(out);
    return this.answer(out);
  }
  async destinationProblem(): Promise<string | null> {
    return null;
  }
}

const SETTINGS: DeliverySettings = { retryScheduleS: DEFAULT_RETRY_SCHEDULE_S, batch: 3, leaseMs: 40_000 };
const newPlainSecret = () => `whsec_${Buffer.from(Array.from({ length: 24 }, () => Math.floor(Math.random() * 256))).toString('base64')}`;

function setup(now = new Date()) {
  const sealer = new FakeSealer();
  const deliveries = new FakeDeliveries();
  const sender = new FakeSender();
  const clock = new FixedClock(now);
  const useCase = new DeliverDueUseCase(deliveries, sender, sealer, SETTINGS, clock);
  const stored = (webhookId: string, id: string, plain: string, createdAt: Date, expiresAt: Date | null = null): WebhookSecret => ({
    id,
    sealed: sealer.seal(Buffer.from(plain), `webhook:${webhookId}:${id}`),
    createdAt,
    expiresAt,
  });
  return { sealer, deliveries, sender, clock, useCase, stored };
}

let n = 0;
function claimed(webhook: Pick<Webhook, 'id' | 'url' | 'status' | 'secrets'>, over: Partial<Delivery> = {}): ClaimedDelivery {
  n++;
  return {
    webhook,
    delivery: {
      id: `whd_${n}`,
      orgId: 'org_a',
      webhookId: webhook.id,
      eventId: `evt_${n}`,
      eventType: 'decision.made',
      body: webhookBody('decision.made', '2026-03-01T10:00:00.000Z', { decision_id: `dec_${n}` }),
      status: 'pending',
      attempts: 0,
      lastResponseCode: null,
      lastError: null,
      nextAttemptAt: new Date(),
      createdAt: new Date(),
      deliveredAt: null,
      ...over,
    },
  };
}

describe('DeliverDueUseCase', () => {
  const logged: unknown[] = [];
  beforeAll(() => {
    Logger.overrideLogger(false);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((...args: unknown[]) => void logged.push(args));
  });
  afterAll(() => jest.restoreAllMocks());
  it('claims a batch with its lease, sends each signed delivery and records success; returns how many it took', async () => {
    const t = setup();
    const plain = newPlainSecret();
    const hook = { id: 'whk_1', url: 'https://hooks.example.com/a', status: 'active' as const, secrets: [t.stored('whk_1', 'whs_1', plain, new Date(0))] };
    t.deliveries.queue = [claimed(hook), claimed(hook), claimed(hook), claimed(hook)];
    const first = t.deliveries.queue[0]!.delivery;

    expect(await t.useCase.execute()).toBe(3);
    expect(t.deliveries.claims).toEqual([{ limit: 3, leaseMs: 40_000, now: t.clock.now() }]);
    expect(t.sender.sent).toHaveLength(3);
    const out = t.sender.sent[0]!;
    expect(out.url).toBe(hook.url);
    expect(out.body).toBe(first.body);
    expect(out.headers).toEqual({
      'webhook-id': first.eventId,
      'webhook-timestamp': String(Math.floor(t.clock.now().getTime() / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(new StandardWebhook(plain).verify(out.body, out.headers)).toEqual(JSON.parse(first.body));

    expect(t.deliveries.recorded).toHaveLength(3);
    expect(t.deliveries.recorded[0]).toEqual({
      delivery: expect.objectContaining({ id: first.id, webhookId: 'whk_1' }),
      outcome: {
        status: 'succeeded',
        attempts: 1,
        lastResponseCode: 200,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: t.clock.now(),
        disableWebhook: false,
      },
      now: t.clock.now(),
    });
    expect(await t.useCase.execute()).toBe(1);
    expect(await t.useCase.execute()).toBe(0);
  });

  it('signs with every secret that still signs (one v1 entry each, each verifying with the standardwebhooks library), never with an expired one', async () => {
    const t = setup();
    const now = t.clock.now();
    const [newest, previous, expired] = [newPlainSecret(), newPlainSecret(), newPlainSecret()];
    const hook = {
      id: 'whk_rot',
      url: 'https://hooks.example.com/rot',
      status: 'active' as const,
      secrets: [
        t.stored('whk_rot', 'whs_prev', previous, new Date(now.getTime() - 2 * H), new Date(now.getTime() + 20 * H)),
        t.stored('whk_rot', 'whs_new', newest, new Date(now.getTime() - 1 * H)),
        t.stored('whk_rot', 'whs_old', expired, new Date(now.getTime() - 50 * H), new Date(now.getTime() - 1)),
      ],
    };
    t.deliveries.queue = [claimed(hook)];
    await t.useCase.execute();

    const out = t.sender.sent[0]!;
    const entries = out.headers['webhook-signature']!.split(' ');
    expect(entries).toHaveLength(2);
    for (const secret of [newest, previous]) {
      expect(() => new StandardWebhook(secret).verify(out.body, out.headers)).not.toThrow();
    }
    // Each entry on its own verifies with exactly one secret, newest first.
    expect(() => new StandardWebhook(newest).verify(out.body, { ...out.headers, 'webhook-signature': entries[0]! })).not.toThrow();
    expect(() => new StandardWebhook(previous).verify(out.body, { ...out.headers, 'webhook-signature': entries[1]! })).not.toThrow();
    expect(() => new StandardWebhook(expired).verify(out.body, out.headers)).toThrow('No matching signature found');
    // A tampered body or id does not verify.
    expect(() => new StandardWebhook(newest).verify(`${out.body} `, out.headers)).toThrow();
    expect(() => new StandardWebhook(newest).verify(out.body, { ...out.headers, 'webhook-id': 'evt_other' })).toThrow();
    expect(t.sealer.opened.sort()).toEqual(['webhook:whk_rot:whs_new', 'webhook:whk_rot:whs_prev']);
  });

  it('reproduces the Standard Webhooks published test vector', async () => {
    const t = setup(new Date(1614265330 * 1000));
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const hook = {
      id: 'whk_vec',
      url: 'https://hooks.example.com/vec',
      status: 'active' as const,
      secrets: [t.stored('whk_vec', 'whs_vec', secret, new Date(0))],
    };
    t.deliveries.queue = [claimed(hook, { eventId: 'msg_p5jXN8AQM9LWM0D4loKWxJek', body: '{"test": 2432232314}' })];
    await t.useCase.execute();
    expect(t.sender.sent[0]).toEqual({
      url: 'https://hooks.example.com/vec',
      body: '{"test": 2432232314}',
      headers: {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
    });
    const spy = jest.spyOn(Date, 'now').mockReturnValue(1614265330 * 1000);
    try {
      expect(new StandardWebhook(secret).verify(t.sender.sent[0]!.body, t.sender.sent[0]!.headers)).toEqual({ test: 2432232314 });
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps the webhook-id (the event id) and the body across attempts, with a fresh timestamp and signature', async () => {
    const t = setup();
    const plain = newPlainSecret();
    const hook = { id: 'whk_r', url: 'https://hooks.example.com/r', status: 'active' as const, secrets: [t.stored('whk_r', 'whs_r', plain, new Date(0))] };
    const item = claimed(hook);
    t.sender.answer = () => ({ status: 503, retryAfterS: null });
    t.deliveries.queue = [item];
    await t.useCase.execute();
    t.clock.advance(5000);
    t.deliveries.queue = [{ ...item, delivery: { ...item.delivery, attempts: 1 } }];
    await t.useCase.execute();
    const [a, b] = t.sender.sent;
    expect(a!.headers['webhook-id']).toBe(item.delivery.eventId);
    expect(b!.headers['webhook-id']).toBe(item.delivery.eventId);
    expect(b!.body).toBe(a!.body);
    expect(Number(b!.headers['webhook-timestamp']) - Number(a!.headers['webhook-timestamp'])).toBe(5);
    expect(b!.headers['webhook-signature']).not.toBe(a!.headers['webhook-signature']);
    expect(t.deliveries.recorded.map((r) => r.outcome.attempts)).toEqual([1, 2]);
    expect(t.deliveries.recorded[1]!.outcome).toMatchObject({
      status: 'pending',
      lastResponseCode: 503,
      nextAttemptAt: new Date(t.clock.now().getTime() + 300_000),
    });
  });

  it('records a retry, a 410 (disabling the webhook) and an exhausted delivery from what the sender answered', async () => {
    const t = setup();
    const hook = {
      id: 'whk_m',
      url: 'https://hooks.example.com/m',
      status: 'active' as const,
      secrets: [t.stored('whk_m', 'whs_m', newPlainSecret(), new Date(0))],
    };
    const retry = claimed(hook, { body: '"retry"' });
    const gone = claimed(hook, { body: '"gone"' });
    const last = claimed(hook, { body: '"last"', attempts: 6 });
    t.sender.answer = (out) =>
      out.body === '"retry"'
        ? { status: 429, retryAfterS: 60 }
        : out.body === '"gone"'
          ? { status: 410, retryAfterS: null }
          : { status: null, error: 'no answer within 10000 ms' };
    t.deliveries.queue = [retry, gone, last];
    await t.useCase.execute();
    const byId = new Map(t.deliveries.recorded.map((r) => [r.delivery.id, r.outcome]));
    const now = t.clock.now();
    expect(byId.get(retry.delivery.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastResponseCode: 429,
      nextAttemptAt: new Date(now.getTime() + 60_000),
      disableWebhook: false,
    });
    expect(byId.get(gone.delivery.id)).toMatchObject({ status: 'failed', attempts: 1, lastResponseCode: 410, disableWebhook: true });
    expect(byId.get(last.delivery.id)).toMatchObject({
      status: 'exhausted',
      attempts: 7,
      lastResponseCode: null,
      lastError: 'no answer within 10000 ms',
      nextAttemptAt: null,
    });
  });

  it('a disabled webhook: the delivery is cancelled, nothing is signed or sent or recorded', async () => {
    const t = setup();
    const hook = {
      id: 'whk_off',
      url: 'https://hooks.example.com/off',
      status: 'disabled' as const,
      secrets: [t.stored('whk_off', 'whs_off', newPlainSecret(), new Date(0))],
    };
    const item = claimed(hook);
    t.deliveries.queue = [item];
    expect(await t.useCase.execute()).toBe(1);
    expect(t.deliveries.cancelled).toEqual([item.delivery.id]);
    expect(t.sender.sent).toEqual([]);
    expect(t.deliveries.recorded).toEqual([]);
    expect(t.sealer.opened).toEqual([]);
  });

  it('a secret that cannot be opened (wrong KEK, or sealed for another webhook) is a failed attempt, never sent unsigned', async () => {
    const t = setup();
    const good = newPlainSecret();
    const wrongKek = {
      id: 'whk_k',
      url: 'https://hooks.example.com/k',
      status: 'active' as const,
      secrets: [{ id: 'whs_k', sealed: 'garbage-from-another-kek', createdAt: new Date(0), expiresAt: null }],
    };
    // A sealed value copied from another webhook does not open under this one's binding.
    const moved = {
      id: 'whk_moved',
      url: 'https://hooks.example.com/moved',
      status: 'active' as const,
      secrets: [t.stored('whk_elsewhere', 'whs_x', good, new Date(0))],
    };
    const a = claimed(wrongKek);
    const b = claimed(moved, { attempts: 2 });
    t.deliveries.queue = [a, b];
    expect(await t.useCase.execute()).toBe(2);
    expect(t.sender.sent).toEqual([]);
    const byId = new Map(t.deliveries.recorded.map((r) => [r.delivery.id, r.outcome]));
    expect(byId.get(a.delivery.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastResponseCode: null,
      lastError: expect.stringMatching(/^not sent: /),
      disableWebhook: false,
      nextAttemptAt: new Date(t.clock.now().getTime() + 5000),
    });
    expect(byId.get(b.delivery.id)).toMatchObject({ status: 'pending', attempts: 3, lastError: expect.stringMatching(/^not sent: /) });
    // The failure is logged, the secret never.
    expect(JSON.stringify(logged)).toContain(a.delivery.id);
    expect(JSON.stringify(logged)).not.toContain(good.slice('whsec_'.length));
  });

  it('logs a failed attempt as structured fields: delivery, webhook and org ids, status, attempt, response code', async () => {
    const t = setup();
    const hook = {
      id: 'whk_log',
      url: 'https://hooks.example.com/log',
      status: 'active' as const,
      secrets: [t.stored('whk_log', 'whs_l', newPlainSecret(), new Date(0))],
    };
    t.sender.answer = () => ({ status: 502, retryAfterS: null });
    const c = claimed(hook, { orgId: 'org_logged', attempts: 1 });
    t.deliveries.queue = [c];
    logged.length = 0;
    await t.useCase.execute();
    expect(logged).toEqual([
      [
        expect.objectContaining({
          msg: 'webhook attempt failed',
          delivery_id: c.delivery.id,
          webhook_id: 'whk_log',
          org_id: 'org_logged',
          status: 'pending',
          attempt: 2,
          code: 502,
        }),
      ],
    ]);
  });

  it('a webhook whose every secret expired is not sent either', async () => {
    const t = setup();
    const now = t.clock.now();
    const hook = {
      id: 'whk_e',
      url: 'https://hooks.example.com/e',
      status: 'active' as const,
      secrets: [t.stored('whk_e', 'whs_e', newPlainSecret(), new Date(0), new Date(now.getTime() - 1))],
    };
    t.deliveries.queue = [claimed(hook)];
    await t.useCase.execute();
    expect(t.sender.sent).toEqual([]);
    expect(t.deliveries.recorded[0]!.outcome).toMatchObject({ status: 'pending', lastError: 'not sent: the webhook has no signing secret' });
  });

  it('sends the batch concurrently', async () => {
    const t = setup();
    const hook = {
      id: 'whk_c',
      url: 'https://hooks.example.com/c',
      status: 'active' as const,
      secrets: [t.stored('whk_c', 'whs_c', newPlainSecret(), new Date(0))],
    };
    let inFlight = 0;
    let peak = 0;
    t.sender.answer = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return { status: 204, retryAfterS: null };
    };
    t.deliveries.queue = [claimed(hook), claimed(hook), claimed(hook)];
    await t.useCase.execute();
    expect(peak).toBe(3);
    expect(t.deliveries.recorded).toHaveLength(3);
  });
});
