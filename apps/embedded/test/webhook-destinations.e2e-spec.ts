import { client, startEmbeddedSystem, WebhookReceiver, type TestSystem } from '@igw/testing';

/**
 * DESIGN 6.11 with the default WEBHOOKS_ALLOW_PRIVATE=false: endpoints on private, loopback or
 * link-local addresses are refused at registration (400 naming `url`), literal or by name.
 */
describe('webhook destinations (embedded, private addresses not allowed)', () => {
  let sys: TestSystem;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    sys = await startEmbeddedSystem({ env: { WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await sys?.stop();
  });

  it.each([
    ['a loopback literal (a live receiver)', () => receiver.url],
    ['localhost', () => 'http://localhost:8080/hook'],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data'],
    ['RFC 1918', () => 'https://10.1.2.3/hook'],
    ['IPv6 loopback', () => 'http://[::1]:8080/hook'],
    ['IPv4-mapped IPv6 loopback', () => 'http://[::ffff:127.0.0.1]/hook'],
    ['a name that does not resolve', () => 'https://no-such-host.invalid/hook'],
  ])('refuses %s with 400 naming url', async (_what, url) => {
    const res = await client(sys.url, sys.adminKey).post('/v1/webhooks', { url: url(), events: ['intention.published'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('url') });
    expect(receiver.received).toEqual([]);
  });
});
