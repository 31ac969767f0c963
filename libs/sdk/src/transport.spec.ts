import { GatewayClient } from './client';
import { GatewayError, GatewayNetworkError, parseRetryAfterSeconds } from './errors';
import { createTransport } from './transport';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | Error | 'hang';

/** A fake fetch that answers from a script and records what it was sent. */
function fakeFetch(script: Answer[]) {
  const seen: { method: string; url: string; body: string; headers: Headers }[] = [];
  const fetch = async (req: Request): Promise<Response> => {
    seen.push({ method: req.method, url: req.url, body: await req.text(), headers: req.headers });
    const next = script.length > 1 ? script.shift() : script[0];
    if (next === undefined) throw new Error('script exhausted');
    if (next === 'hang')
      return new Promise((_, reject) => {
        const fail = () => reject(req.signal.reason ?? new Error('aborted'));
        if (req.signal.aborted) fail();
        else req.signal.addEventListener('abort', fail, { once: true });
      });
    if (next instanceof Error) throw next;
    const body = next.body === undefined ? null : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    return new Response(body, { status: next.status, headers: { 'content-type': 'application/json', ...next.headers } });
  };
  return { fetch, seen };
}

const sleeps = () => {
  const waited: number[] = [];
  return { waited, sleep: async (ms: number) => void waited.push(ms) };
};

const client = (script: Answer[], extra: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}) => {
  const f = fakeFetch(script);
  const s = sleeps();
  const c = new GatewayClient({ baseUrl: 'http://gw.test/', apiKey: 'igw_test', fetch: f.fetch, sleep: s.sleep, ...extra });
  return { c, seen: f.seen, waited: s.waited };
};

const page = (ids: string[], next: string | null) => ({ status: 200, body: { data: ids.map((id) => ({ id })), next_cursor: next } });
const cardPage = { status: 200, body: { data: [], next_cursor: null } };

describe('retries (fake fetch, no clock)', () => {
  it('retries an idempotent GET on 429 after the Retry-After seconds, then succeeds', async () => {
    const retries: number[] = [];
    const { c, seen, waited } = client([{ status: 429, body: { code: 'rate_limited', message: 'slow down' }, headers: { 'retry-after': '2' } }, cardPage], {
      onRetry: (e) => retries.push(e.status),
    });
    await expect(c.inspectMandate('cred_1')).resolves.toEqual({ data: [], next_cursor: null });
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET']);
    expect(waited).toEqual([2000]);
    expect(retries).toEqual([429]);
    expect(seen[1]!.headers.get('authorization')).toBe('Bearer igw_test');
  });

  it('retries 503 with exponential backoff when there is no Retry-After, and stops after maxAttempts', async () => {
    const f = fakeFetch([{ status: 503, body: { code: 'unavailable', message: 'down' } }]);
    const s = sleeps();
    const c = new GatewayClient({ baseUrl: 'http://gw.test', fetch: f.fetch, sleep: s.sleep, retry: { maxAttempts: 4, baseDelayMs: 100 } });
    const err = await c.jwks().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 503, code: 'unavailable', message: 'down' });
    expect(f.seen).toHaveLength(4);
    expect(s.waited).toHaveLength(3);
    // 100·2^(n−1), halved at random: [50, 100], [100, 200], [200, 400].
    s.waited.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('never retries a POST: a 429 is thrown at once as a typed GatewayError with its Retry-After', async () => {
    const { c, seen, waited } = client([{ status: 429, body: { code: 'rate_limited', message: 'too many requests' }, headers: { 'retry-after': '1' } }]);
    const err = await c.evaluate({ name: 'crm.lookup' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 1 });
    expect(seen).toHaveLength(1);
    expect(waited).toEqual([]);
  });

  it('retries PUT and DELETE (idempotent) and sends the body again on every attempt', async () => {
    const f = fakeFetch([
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 200, body: { ok: true } },
    ]);
    const s = sleeps();
    const send = createTransport({ fetch: f.fetch, sleep: s.sleep });
    const res = await send(new Request('http://gw.test/x', { method: 'PUT', body: '{"a":1}' }));
    expect(res.status).toBe(200);
    expect(f.seen.map((x) => x.body)).toEqual(['{"a":1}', '{"a":1}']);
    const g = fakeFetch([{ status: 429 }, { status: 204 }]);
    const del = await createTransport({ fetch: g.fetch, sleep: s.sleep })(new Request('http://gw.test/x', { method: 'DELETE' }));
    expect(del.status).toBe(204);
    expect(g.seen).toHaveLength(2);
  });

  it('does not retry other statuses, nor when Retry-After is beyond maxRetryAfterMs; retry: false sends once', async () => {
    for (const status of [400, 404, 500, 502]) {
      const f = fakeFetch([{ status }]);
      await createTransport({ fetch: f.fetch, sleep: sleeps().sleep })(new Request('http://gw.test/x'));
      expect({ status, calls: f.seen.length }).toEqual({ status, calls: 1 });
    }
    const long = fakeFetch([{ status: 429, headers: { 'retry-after': '3600' } }, { status: 200 }]);
    expect((await createTransport({ fetch: long.fetch, sleep: sleeps().sleep })(new Request('http://gw.test/x'))).status).toBe(429);
    const off = fakeFetch([{ status: 503 }, { status: 200 }]);
    expect((await createTransport({ fetch: off.fetch, retry: false })(new Request('http://gw.test/x'))).status).toBe(503);
    expect(off.seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfterSeconds('7')).toBe(7);
    expect(parseRetryAfterSeconds(new Date(Date.parse('2030-01-01T00:00:10Z')).toUTCString(), Date.parse('2030-01-01T00:00:00Z'))).toBe(10);
    expect(parseRetryAfterSeconds('soon')).toBeUndefined();
    expect(parseRetryAfterSeconds(null)).toBeUndefined();
  });

  it('turns no answer into GatewayNetworkError (timedOut on the deadline) and passes the caller’s abort through', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const down = await client([refused])
      .c.jwks()
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(GatewayNetworkError);
    expect(down).toMatchObject({ timedOut: false, message: expect.stringContaining('ECONNREFUSED') });

    const slow = await client(['hang'], { timeoutMs: 5 })
      .c.jwks()
      .catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(GatewayNetworkError);
    expect(slow).toMatchObject({ timedOut: true });

    const mine = new AbortController();
    const pending = client(['hang']).c.jwks({ signal: mine.signal });
    mine.abort(new Error('user gave up'));
    await expect(pending).rejects.toThrow('user gave up');
  });
});

describe('GatewayClient', () => {
  it('throws the error body as GatewayError {status, code, message, details}', async () => {
    const details = [{ path: 'tool_call.name', message: 'tool_call.name is required' }];
    const { c } = client([{ status: 400, body: { code: 'invalid_request', message: 'tool_call.name is required', details } }]);
    const err = (await c.evaluate({ name: '' }).catch((e: unknown) => e)) as GatewayError;
    expect(err).toBeInstanceOf(GatewayError);
    expect({ status: err.status, code: err.code, message: err.message, details: err.details }).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'tool_call.name is required',
      details,
    });
    const html = (await client([{ status: 502, body: '<html>bad gateway</html>' }])
      .c.createIntention({ label: 'x', intent_class: 'lookup' } as never)
      .catch((e: unknown) => e)) as GatewayError;
    expect(html).toMatchObject({ status: 502, code: 'http_502' });
  });

  it('evaluate posts the tool call with its options', async () => {
    const { c, seen } = client([{ status: 200, body: { outcome: 'allowed', intent_label: 'crm.lookup', grant: 'g' } }]);
    await expect(c.evaluate({ name: 'crm.lookup', arguments: { q: 1 } }, { user_id: 'u1' })).resolves.toMatchObject({ outcome: 'allowed', grant: 'g' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'http://gw.test/v1/intent/evaluate' });
    expect(JSON.parse(seen[0]!.body)).toEqual({ user_id: 'u1', tool_call: { name: 'crm.lookup', arguments: { q: 1 } } });
  });

  it('withMandate(credential).call(action) sends the mandate header, defaults the audience to its aud, and returns refusals as decisions', async () => {
    const jwt = `e30.${Buffer.from(JSON.stringify({ aud: 'crm-api' })).toString('base64url')}.sig`;
    const decision = {
      decision: { kind: 'deny', decision_id: 'dec_1', reason: 'forbidden_operation' },
      mandate: { cred_id: 'cred_1', prompt_id: null, intent_id: 'c' },
    };
    const { c, seen } = client([
      { status: 403, body: decision },
      { status: 401, body: { code: 'mandate_invalid', message: 'the mandate has expired' } },
    ]);
    const session = c.withMandate(jwt);
    await expect(session.call({ surface: 'sdk', operation: 'crm.contacts.delete' })).resolves.toEqual({ ...decision, status: 403 });
    expect(seen[0]!.headers.get('x-service-mandate')).toBe(jwt);
    expect(JSON.parse(seen[0]!.body)).toEqual({ action: { surface: 'sdk', operation: 'crm.contacts.delete' }, audience: 'crm-api' });
    await expect(session.call({ surface: 'sdk', operation: 'crm.contacts.read' })).rejects.toMatchObject({ status: 401, code: 'mandate_invalid' });
  });

  it('iterates cursor pages lazily, passing next_cursor as cursor', async () => {
    const { c, seen } = client([page(['a', 'b'], 'c1'), page(['c'], 'c2'), page(['d'], null)]);
    const ids: string[] = [];
    for await (const e of c.history({ limit: 2, outcome: 'denied' })) ids.push(e.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    expect(seen.map((s) => new URL(s.url).search)).toEqual([
      '?limit=2&outcome=denied',
      '?limit=2&outcome=denied&cursor=c1',
      '?limit=2&outcome=denied&cursor=c2',
    ]);
    const first = client([page(['x', 'y'], 'more')]);
    for await (const a of first.c.approvals({ status: 'pending' })) if (a.id === 'x') break;
    expect(first.seen).toHaveLength(1);
  });
});
