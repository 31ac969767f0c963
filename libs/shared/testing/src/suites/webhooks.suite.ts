import { randomBytes } from 'node:crypto';
import { Topics } from '@igw/contracts';
import { client, type Client } from '../e2e/http-client';
import { mintKey, otherOrgClient } from '../e2e/org-keys';
import { pollFor } from '../unit/wait-until';
import type { TestSystem } from '../e2e/system';
import { verifyStandardWebhook, WebhookReceiver, type ReceivedWebhook } from '../fakes/webhook-receiver.fake-server';

/** Settings the suite starts the system with: fast retries and a short deadline, so backoff fits a test. */
export const WEBHOOK_TEST_ENV = { WEBHOOK_RETRY_SCHEDULE: '1s,2s,2s', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOKS_ALLOW_PRIVATE: 'true' };

// Every public type, from the contract: the unit spec of the dispatcher pins the list itself.
const ALL_TYPES = Object.values(Topics).flatMap((t) => (typeof t.webhookType === 'string' ? [t.webhookType] : []));

/**
 * Webhooks over HTTP (DESIGN 6.11), the same in every mode, with real receivers on 127.0.0.1 that
 * verify the Standard Webhooks signature independently of the library that signs.
 */
export function describeWebhooks(mode: string, start: (env: Record<string, string>) => Promise<TestSystem>) {
  describe(`webhooks (${mode})`, () => {
    let sys: TestSystem;
    let admin: Client;
    let writer: Client;
    let otherAdmin: Client;
    const receivers: WebhookReceiver[] = [];
    const receiver = async () => {
      const r = await WebhookReceiver.start();
      receivers.push(r);
      return r;
    };
    const register = async (url: string, events: string[] = ALL_TYPES, as: Client = admin) => {
      const res = await as.post('/v1/webhooks', { url, events, description: 'test' });
      expect(res.status).toBe(201);
      return res.body as { id: string; secret: string };
    };
    const publishIntention = async (label = `wh.${randomBytes(4).toString('hex')}`, extra: Record<string, unknown> = {}) => {
      const created = await writer.post('/v1/intentions', { label, intent_class: 'lookup', description: `look up ${label}`, ...extra });
      expect(created.status).toBe(201);
      expect((await writer.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      return created.body as { id: string; label: string };
    };
    /** A receiver for intention.published that answers `reply`, once it got its first delivery of a fresh intention. */
    const firstDeliveryAnswered = async (reply: Parameters<WebhookReceiver['replies']>[0]) => {
      const r = await receiver();
      const hook = await register(r.url, ['intention.published']);
      r.replies(reply);
      await publishIntention();
      await r.waitFor((all) => all.length >= 1, 10_000);
      return { r, hook };
    };
    const ofType = (type: string) => (all: ReceivedWebhook[]) => all.some((w) => w.json?.type === type);
    const deliveries = async (id: string) => (await admin.get(`/v1/webhooks/${id}/deliveries`)).body.data as Array<Record<string, any>>;

    beforeAll(async () => {
      sys = await start(WEBHOOK_TEST_ENV);
      admin = client(sys.url, sys.adminKey);
      writer = client(sys.url, await mintKey(admin, 'wh-writer', 'policy_write'));
      otherAdmin = await otherOrgClient(sys, 'wh-other');
    });

    afterAll(async () => {
      await Promise.all(receivers.map((r) => r.close()));
      await sys?.stop();
    });

    it('registers with a whsec_ secret shown once; lists without it; refuses bad input; admin only; org-scoped', async () => {
      const r = await receiver();
      const res = await admin.post('/v1/webhooks', { url: r.url, events: ['decision.made'] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^whk_/),
        url: r.url,
        events: ['decision.made'],
        description: null,
        status: 'active',
        disabled_reason: null,
        created_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{32}$/),
      });
      const list = await admin.get('/v1/webhooks');
      expect(list.body.data.find((w: { id: string }) => w.id === res.body.id)).toEqual({ ...res.body, secret: undefined });
      expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
      const bad = async (body: unknown, field: string) => {
        const b = await admin.post('/v1/webhooks', body);
        expect({ status: b.status, code: b.body.code }).toEqual({ status: 400, code: 'invalid_request' });
        expect(b.body.message).toContain(field);
      };
      await bad({ url: 'ftp://example.com/x', events: ['decision.made'] }, 'url');
      await bad({ url: 'not a url', events: ['decision.made'] }, 'url');
      await bad({ url: 'https://user:pw@example.com/x', events: ['decision.made'] }, 'url');
      await bad({ url: r.url, events: ['decision.unknown'] }, 'events');
      await bad({ url: r.url, events: [] }, 'events');
      await bad({ url: r.url }, 'events');
      expect((await admin.post('/v1/webhooks', { events: ['decision.made'] })).body).toMatchObject({ code: 'invalid_request', message: 'url is required' });
      expect((await admin.post('/v1/webhooks', { url: r.url })).body).toMatchObject({ code: 'invalid_request', message: 'events is required' });
      expect((await writer.post('/v1/webhooks', { url: r.url, events: ['decision.made'] })).status).toBe(403);
      expect((await otherAdmin.get(`/v1/webhooks/${res.body.id}/deliveries`)).status).toBe(404);
      expect((await otherAdmin.delete(`/v1/webhooks/${res.body.id}`)).status).toBe(404);
      expect((await otherAdmin.post(`/v1/webhooks/${res.body.id}/rotate-secret`)).status).toBe(404);
      expect((await admin.delete(`/v1/webhooks/${res.body.id}`)).status).toBe(204);
      expect((await admin.delete(`/v1/webhooks/${res.body.id}`)).status).toBe(404);
    });

    it('delivers every public event type, signed (Standard Webhooks), to its org only', async () => {
      const mine = await receiver();
      const theirs = await receiver();
      const hook = await register(mine.url);
      await register(theirs.url, ALL_TYPES, otherAdmin);

      // intention.published
      const intention = await publishIntention(`wh.crm.lookup.${randomBytes(3).toString('hex')}`, { approval_required: true });
      // intent.evaluated + approval.requested, then approval.approved
      const evaluated = await writer.post('/v1/intent/evaluate', { tool_call: { name: intention.label, arguments: {} }, user_id: 'u1' });
      expect(evaluated.status).toBe(200);
      expect(evaluated.body.outcome).toBe('pending_approval');
      const approvalId = evaluated.body.approval_request_id;
      expect((await admin.post(`/v1/approvals/${approvalId}/approve`)).status).toBe(200);
      // mandate.dispensed, decision.made, mandate.revoked
      const card = {
        id: `wh-card-${randomBytes(3).toString('hex')}`,
        name: 'wh',
        allowed_scope: { operations: ['crm.**'], resources: ['crm://**'] },
        audiences: ['crm-api'],
        max_ttl_seconds: 600,
      };
      expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
      const mandate = await writer.post('/v1/mandate/dispense', {
        actor: 'agent:wh',
        intent_id: card.id,
        prompt_id: 'p',
        requested_scope: { operations: ['crm.read'], resources: ['crm://a'] },
        audience: 'crm-api',
      });
      expect(mandate.status).toBe(200);
      const decision = await writer.post(
        '/v1/mcp-proxy/call',
        { action: { surface: 'sdk', operation: 'crm.read', target_resource: 'crm://a' }, context: { actor: 'agent:wh', prompt_id: 'p' }, audience: 'crm-api' },
        { 'x-service-mandate': mandate.body.credential },
      );
      expect(decision.status).toBe(200);
      expect((await writer.post('/v1/mandate/revoke', { cred_id: mandate.body.cred_id })).status).toBe(200);

      const expected = [
        'intention.published',
        'intent.evaluated',
        'approval.requested',
        'approval.approved',
        'mandate.dispensed',
        'decision.made',
        'mandate.revoked',
      ];
      const got = await mine.waitFor((all) => expected.every((t) => ofType(t)(all)), 20_000);
      for (const w of got) {
        expect(verifyStandardWebhook(hook.secret, w)).toBe(true);
        expect(w.id).toMatch(/^evt_/);
        expect(Math.abs(Number(w.timestamp) - Date.now() / 1000)).toBeLessThan(60);
        expect(Object.keys(w.json).sort()).toEqual(['data', 'timestamp', 'type']);
        expect(w.headers['content-type']).toContain('application/json');
      }
      expect(new Set(got.map((w) => w.id)).size).toBe(got.length);
      expect(got.find((w) => w.json.type === 'decision.made')!.json.data).toMatchObject({
        decision_id: decision.body.decision.decision_id,
        kind: 'allow',
        cred_id: mandate.body.cred_id,
      });
      expect(got.find((w) => w.json.type === 'mandate.revoked')!.json.data).toMatchObject({ cred_id: mandate.body.cred_id, status: 'revoked' });
      expect(got.find((w) => w.json.type === 'intention.published')!.json.data).toMatchObject({ id: intention.id, status: 'active' });
      // Give the other org's endpoint time to (wrongly) receive anything.
      await new Promise((r) => setTimeout(r, 1000));
      expect(theirs.received).toEqual([]);
      expect((await deliveries(hook.id)).every((d) => d.status === 'succeeded' && d.attempts === 1 && d.last_response_code === 200)).toBe(true);
    });

    it('retries a 500 with the same webhook-id until a 2xx; the deliveries list shows attempts and codes', async () => {
      const r = await receiver();
      const hook = await register(r.url, ['intention.published']);
      r.replies({ status: 500 }, { status: 502 });
      await publishIntention();
      const got = await r.waitFor((all) => all.length >= 3, 15_000);
      expect(new Set(got.map((w) => w.id)).size).toBe(1);
      expect(got.map((w) => w.body)).toEqual([got[0]!.body, got[0]!.body, got[0]!.body]);
      expect(Number(got[1]!.timestamp)).toBeGreaterThanOrEqual(Number(got[0]!.timestamp) + 1);
      let list: Array<Record<string, any>> = [];
      for (let i = 0; i < 30 && list[0]?.status !== 'succeeded'; i++) {
        list = await deliveries(hook.id);
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(list[0]).toMatchObject({
        status: 'succeeded',
        attempts: 3,
        last_response_code: 200,
        event_type: 'intention.published',
        next_attempt_at: null,
        delivered_at: expect.any(String),
      });
    });

    it('honours Retry-After', async () => {
      const r = await receiver();
      await register(r.url, ['intention.published']);
      r.replies({ status: 503, headers: { 'retry-after': '3' } });
      await publishIntention();
      const got = await r.waitFor((all) => all.length >= 2, 15_000);
      expect(got[1]!.receivedAt - got[0]!.receivedAt).toBeGreaterThanOrEqual(2900);
    });

    it('410 Gone disables the endpoint: no more deliveries', async () => {
      const { r, hook } = await firstDeliveryAnswered({ status: 410 });
      const listed = await pollFor(
        async (): Promise<Record<string, any> | undefined> =>
          (await admin.get('/v1/webhooks?limit=200')).body.data.find((w: { id: string }) => w.id === hook.id),
        (l) => l?.status === 'disabled',
        30,
      );
      expect(listed).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') });
      expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 410 });
      await publishIntention();
      await new Promise((res) => setTimeout(res, 2500));
      expect(r.received).toHaveLength(1);
      // Fixed on the receiving side: enabled again, it takes the next event.
      expect((await otherAdmin.post(`/v1/webhooks/${hook.id}/enable`)).status).toBe(404);
      const enabled = await admin.post(`/v1/webhooks/${hook.id}/enable`);
      expect(enabled.status).toBe(200);
      expect(enabled.body).toMatchObject({ id: hook.id, status: 'active', disabled_reason: null });
      await publishIntention();
      await r.waitFor((all) => all.length >= 2, 10_000);
    });

    it('a receiver slower than the deadline is a failed attempt, retried', async () => {
      const r = await receiver();
      const hook = await register(r.url, ['intention.published']);
      r.replies({ status: 200, delayMs: 4000 });
      await publishIntention();
      const got = await r.waitFor((all) => all.length >= 2, 15_000);
      expect(got[1]!.id).toBe(got[0]!.id);
      const list = await pollFor(
        () => deliveries(hook.id),
        (l) => l[0]?.status === 'succeeded',
        40,
      );
      expect(list[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    });

    it('rotating the secret: both secrets sign until the old one expires', async () => {
      const r = await receiver();
      const hook = await register(r.url, ['intention.published']);
      const rotated = await admin.post(`/v1/webhooks/${hook.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body).toEqual({ id: hook.id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) });
      expect(new Date(rotated.body.previous_secret_expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      await publishIntention();
      const [w] = await r.waitFor((all) => all.length >= 1, 10_000);
      expect(w!.signature.split(' ')).toHaveLength(2);
      expect(verifyStandardWebhook(rotated.body.secret, w!)).toBe(true);
      expect(verifyStandardWebhook(hook.secret, w!)).toBe(true);
    });

    it('a restart during backoff loses nothing: the persisted retry is sent after the restart', async () => {
      const { r, hook } = await firstDeliveryAnswered({ status: 500 });
      await sys.restartService('webhook-dispatcher');
      const got = await r.waitFor((all) => all.length >= 2, 30_000);
      expect(got[1]!.id).toBe(got[0]!.id);
      expect(verifyStandardWebhook(hook.secret, got[1]!)).toBe(true);
    });
  });
}
