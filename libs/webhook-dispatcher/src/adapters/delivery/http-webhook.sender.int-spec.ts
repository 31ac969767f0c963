import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { WebhookReceiver } from '@igw/testing';
import { HttpWebhookSender, type HttpWebhookSenderOptions } from './http-webhook.sender';

type Resolver = (host: string) => LookupAddress[] | NodeJS.ErrnoException;

/** A dns.lookup stand-in answering from `resolve`; records every name it was asked. */
function fakeLookup(resolve: Resolver, asked: string[] = []): typeof dnsLookup {
  const fn = (host: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (err: NodeJS.ErrnoException | null, a: LookupAddress[] | string, f?: number) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    asked.push(host);
    const answer = resolve(host);
    setImmediate(() => {
      if (!Array.isArray(answer)) return cb(answer, all ? [] : '', 0);
      if (all) return cb(null, answer);
      return cb(null, answer[0]!.address, answer[0]!.family);
    });
  };
  return fn as unknown as typeof dnsLookup;
}
const notFound = (host: string): NodeJS.ErrnoException => Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
const v4 = (address: string): LookupAddress => ({ address, family: 4 });

const BODY = JSON.stringify({ type: 'decision.made', timestamp: '2026-03-01T10:00:00.000Z', data: { decision_id: 'dec_1' } });
const HEADERS = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1772359200', 'webhook-signature': 'v1,abc=' };

describe('HttpWebhookSender (real HTTP on 127.0.0.1)', () => {
  let receiver: WebhookReceiver;
  const senders: HttpWebhookSender[] = [];
  const sender = (options: Partial<HttpWebhookSenderOptions> = {}) => {
    const s = new HttpWebhookSender({ allowPrivate: false, timeoutMs: 5000, ...options });
    senders.push(s);
    return s;
  };
  const sendTo = (s: HttpWebhookSender, url: string) => s.send({ url, headers: HEADERS, body: BODY });

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close().catch(() => undefined)));
    await receiver.close();
  });

  describe('allowPrivate = false', () => {
    it('refuses a loopback literal at send time: nothing reaches the receiver', async () => {
      const result = await sendTo(sender(), receiver.url);
      expect(result).toEqual({ status: null, error: 'destination 127.0.0.1 is not a public address' });
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toEqual([]);
    });

    it('refuses `localhost` (a name resolving to loopback) at connect time: nothing reaches the receiver', async () => {
      const result = await sendTo(sender(), receiver.url.replace('127.0.0.1', 'localhost'));
      expect(result).toEqual({ status: null, error: expect.stringMatching(/^localhost resolves only to private, loopback or link-local addresses$/) });
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toEqual([]);
    });

    it.each([
      ['http://127.0.0.1:9/x', /127\.0\.0\.1.*not a public address/],
      ['http://localhost:9/x', /localhost resolves to (127\.0\.0\.1|::1), which is not a public address/],
      ['http://10.0.0.1/x', /10\.0\.0\.1.*not a public address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254.*not a public address/],
      ['http://[::1]:8080/x', /::1.*not a public address/],
      ['http://[::ffff:127.0.0.1]/x', /not a public address/],
      ['http://100.64.0.1/x', /not a public address/],
      ['http://0.0.0.0/x', /not a public address/],
      ['http://2130706433/x', /127\.0\.0\.1.*not a public address/],
    ])('destinationProblem refuses %s', async (url, message) => {
      expect(await sender().destinationProblem(url)).toMatch(message);
    });

    it('destinationProblem accepts a public literal without touching the network', async () => {
      const asked: string[] = [];
      const s = sender({ lookup: fakeLookup(() => notFound('x'), asked) });
      expect(await s.destinationProblem('https://93.184.216.34/hook')).toBeNull();
      expect(await s.destinationProblem('https://[2606:4700:4700::1111]/hook')).toBeNull();
      expect(asked).toEqual([]);
    });

    it('destinationProblem refuses a name that does not resolve, or resolves to any non-public address', async () => {
      const s = sender({
        lookup: fakeLookup((host) =>
          host === 'mixed.example.test' ? [v4('93.184.216.34'), v4('10.1.2.3')] : host === 'public.example.test' ? [v4('93.184.216.34')] : notFound(host),
        ),
      });
      expect(await s.destinationProblem('https://nowhere.example.test/x')).toBe('url host nowhere.example.test does not resolve');
      expect(await s.destinationProblem('https://mixed.example.test/x')).toBe(
        'url host mixed.example.test resolves to 10.1.2.3, which is not a public address',
      );
      expect(await s.destinationProblem('https://public.example.test/x')).toBeNull();
    });

    it('DNS rebinding: a name that looked public at registration but resolves to loopback at send time is refused at connect time', async () => {
      let calls = 0;
      const asked: string[] = [];
      const s = sender({ lookup: fakeLookup(() => (++calls === 1 ? [v4('93.184.216.34')] : [v4('127.0.0.1')]), asked) });
      const url = receiver.url.replace('127.0.0.1', 'hooks.rebind.example.test');
      expect(await s.destinationProblem(url)).toBeNull();
      const result = await sendTo(s, url);
      expect(result).toEqual({ status: null, error: 'hooks.rebind.example.test resolves only to private, loopback or link-local addresses' });
      expect(asked).toEqual(['hooks.rebind.example.test', 'hooks.rebind.example.test']);
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toEqual([]);
    });

    it('a name resolving to public and private addresses connects only to a public one', async () => {
      // The private address is the receiver's; the public one is tried instead (and, offline or not, answers nothing here).
      const s = sender({ timeoutMs: 500, lookup: fakeLookup(() => [v4('127.0.0.1'), v4('93.184.216.34')]) });
      const result = await sendTo(s, receiver.url.replace('127.0.0.1', 'mixed.example.test'));
      expect(result.status).toBeNull();
      expect((result as { error: string }).error).not.toMatch(/resolves only to private/);
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toEqual([]);
    });
  });

  describe('allowPrivate = true', () => {
    it('sends a POST with the JSON body and the signature headers, and reads a 2xx', async () => {
      receiver.replies({ status: 204 });
      const result = await sendTo(sender({ allowPrivate: true }), receiver.url);
      expect(result).toEqual({ status: 204, retryAfterS: null });
      const [got] = await receiver.waitFor((all) => all.length === 1);
      expect(got!.body).toBe(BODY);
      expect(got!.path).toBe('/hook');
      expect(got!.headers).toMatchObject({ ...HEADERS, 'content-type': 'application/json', 'user-agent': 'intent-gateway-webhooks/1' });
    });

    it('sends to names resolving to private addresses too (through the injected lookup) and accepts them at registration', async () => {
      const s = sender({ allowPrivate: true, lookup: fakeLookup(() => [v4('127.0.0.1')]) });
      const url = receiver.url.replace('127.0.0.1', 'hooks.internal.example.test');
      expect(await s.destinationProblem(url)).toBeNull();
      expect(await s.destinationProblem(receiver.url)).toBeNull();
      expect(await sendTo(s, url)).toEqual({ status: 200, retryAfterS: null });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.headers['host']).toBe(`hooks.internal.example.test:${receiver.port}`);
    });

    it('does not follow a redirect: the 3xx is the answer', async () => {
      receiver.reply((req) => (req.path === '/hook' ? { status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } } : { status: 200 }));
      expect(await sendTo(sender({ allowPrivate: true }), receiver.url)).toEqual({ status: 302, retryAfterS: null });
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    });

    it('reads Retry-After as delta seconds or an HTTP-date, capped at 24 h', async () => {
      const s = sender({ allowPrivate: true });
      const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
      receiver.replies(
        { status: 429, headers: { 'retry-after': '30' } },
        { status: 503, headers: { 'retry-after': inTwoMinutes } },
        { status: 503, headers: { 'retry-after': '999999' } },
        { status: 503, headers: { 'retry-after': 'later' } },
        { status: 500 },
        { status: 410 },
      );
      expect(await sendTo(s, receiver.url)).toEqual({ status: 429, retryAfterS: 30 });
      const dated = await sendTo(s, receiver.url);
      expect(dated.status).toBe(503);
      expect((dated as { retryAfterS: number }).retryAfterS).toBeGreaterThanOrEqual(118);
      expect((dated as { retryAfterS: number }).retryAfterS).toBeLessThanOrEqual(121);
      expect(await sendTo(s, receiver.url)).toEqual({ status: 503, retryAfterS: 86_400 });
      expect(await sendTo(s, receiver.url)).toEqual({ status: 503, retryAfterS: null });
      expect(await sendTo(s, receiver.url)).toEqual({ status: 500, retryAfterS: null });
      expect(await sendTo(s, receiver.url)).toEqual({ status: 410, retryAfterS: null });
    });

    it('a server slower than timeoutMs is "no answer within" the deadline', async () => {
      receiver.replies({ status: 200, delayMs: 3000 });
      const started = Date.now();
      const result = await sendTo(sender({ allowPrivate: true, timeoutMs: 300 }), receiver.url);
      expect(result).toEqual({ status: null, error: 'no answer within 300 ms' });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('a large response body is discarded and does not hold the attempt', async () => {
      receiver.replies({ status: 200, body: 'x'.repeat(1024 * 1024) });
      expect(await sendTo(sender({ allowPrivate: true }), receiver.url)).toEqual({ status: 200, retryAfterS: null });
    });

    it('a closed port is a failed attempt with the reason', async () => {
      const port = receiver.port;
      await receiver.close();
      const result = await sendTo(sender({ allowPrivate: true }), `http://127.0.0.1:${port}/hook`);
      expect(result).toEqual({ status: null, error: expect.stringMatching(/ECONNREFUSED/) });
    });
  });

  it('an invalid url is a failed attempt, not a throw', async () => {
    expect(await sendTo(sender(), 'not a url')).toEqual({ status: null, error: 'invalid url' });
  });
});
