import { createHmac } from 'node:crypto';
import { verifyStandardWebhook, WebhookReceiver } from './webhook-receiver.fake-server';

// The Standard Webhooks published test vector.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const VECTOR = {
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('verifyStandardWebhook', () => {
  it('accepts the Standard Webhooks test vector', () => {
    expect(verifyStandardWebhook(SECRET, VECTOR)).toBe(true);
  });

  it('refuses a tampered body, id or timestamp, and another secret', () => {
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, body: '{"test": 2432232315}' })).toBe(false);
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, id: 'msg_other' })).toBe(false);
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, timestamp: '1614265331' })).toBe(false);
    expect(verifyStandardWebhook('whsec_' + Buffer.alloc(24, 7).toString('base64'), VECTOR)).toBe(false);
  });

  it('accepts a multi-signature header when any v1 entry verifies, and only v1 entries', () => {
    const other = 'v1,' + createHmac('sha256', Buffer.alloc(24, 1)).update(`${VECTOR.id}.${VECTOR.timestamp}.${VECTOR.body}`).digest('base64');
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, signature: `${other} ${VECTOR.signature}` })).toBe(true);
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, signature: other })).toBe(false);
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, signature: VECTOR.signature.replace('v1,', 'v2,') })).toBe(false);
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, signature: VECTOR.signature.slice(0, -2) })).toBe(false);
    expect(verifyStandardWebhook(SECRET, { ...VECTOR, signature: '' })).toBe(false);
  });
});

describe('WebhookReceiver', () => {
  let hook: WebhookReceiver;
  beforeEach(async () => (hook = await WebhookReceiver.start()));
  afterEach(() => hook.close());

  const send = (body: string, id = 'msg_1', extra: Record<string, string> = {}) =>
    fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': VECTOR.timestamp, 'webhook-signature': VECTOR.signature, ...extra },
      body,
    });

  it('records every request with the Standard Webhooks headers, and answers 200 by default', async () => {
    expect(hook.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    const before = Date.now();
    const res = await send(VECTOR.body, VECTOR.id, { 'x-extra': 'yes' });
    expect(res.status).toBe(200);
    expect(hook.received).toHaveLength(1);
    const [w] = hook.received;
    expect(w).toMatchObject({
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
      signature: VECTOR.signature,
      body: VECTOR.body,
      json: { test: 2432232314 },
      path: '/hook',
    });
    expect(w!.headers['x-extra']).toBe('yes');
    expect(w!.receivedAt).toBeGreaterThanOrEqual(before);
    expect(verifyStandardWebhook(SECRET, w!)).toBe(true);

    await fetch(`${hook.url}/sub?x=1`, { method: 'POST', body: 'not json' });
    expect(hook.received[1]).toMatchObject({ path: '/hook/sub', body: 'not json', json: undefined, id: '' });
  });

  it('answers per replies(), in sequence (with headers, body and delay), then 200, recording the non-2xx ones too', async () => {
    hook.replies({ status: 503, headers: { 'retry-after': '2' }, body: 'busy' }, { status: 500 }, { status: 204, delayMs: 300 });
    const r1 = await send('{"n":1}', 'a');
    expect(r1.status).toBe(503);
    expect(r1.headers.get('retry-after')).toBe('2');
    expect(await r1.text()).toBe('busy');
    expect((await send('{"n":2}', 'b')).status).toBe(500);
    const started = Date.now();
    expect((await send('{"n":3}', 'c')).status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await send('{"n":4}', 'd')).status).toBe(200);
    expect(hook.received.map((w) => w.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(hook.received.map((w) => w.json.n)).toEqual([1, 2, 3, 4]);
  });

  it('answers per reply(fn) with the 1-based request count', async () => {
    const seen: number[] = [];
    hook.reply((w, n) => {
      seen.push(n);
      return { status: w.id === 'bad' ? 400 : n % 2 ? 202 : 409 };
    });
    expect((await send('{}', 'x')).status).toBe(202);
    expect((await send('{}', 'y')).status).toBe(409);
    expect((await send('{}', 'bad')).status).toBe(400);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('waitFor resolves once the predicate holds, and rejects saying what arrived', async () => {
    const waiting = hook.waitFor((all) => all.length >= 2, 2_000);
    await send('{"n":1}', 'one');
    await send('{"n":2}', 'two');
    expect((await waiting).map((w) => w.id)).toEqual(['one', 'two']);

    await expect(hook.waitFor((all) => all.some((w) => w.id === 'three'), 100)).rejects.toThrow(/not met within 100ms; received 2:[\s\S]*id=one[\s\S]*id=two/);
  });

  it('close() cuts a reply still delayed', async () => {
    hook.replies({ status: 200, delayMs: 30_000 });
    const pending = send('{}', 'slow').then(
      (r) => `answered ${r.status}`,
      (err: Error) => `failed: ${err.message}`,
    );
    await hook.waitFor((all) => all.length === 1);
    const started = Date.now();
    await hook.close();
    expect(await pending).toMatch(/^failed: /);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
