import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeFakeHttpServer, readFakeBody, startFakeHttpServer } from './fake-http-server';

/**
 * A webhook endpoint for tests (unit, int and e2e): a real `node:http` server on a free loopback
 * port that records every request and answers as scripted.
 *
 * - Every request (any method or path, also the ones answered non-2xx) is recorded in `received`,
 *   in arrival order, with the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 *   `webhook-signature`), the raw body, the parsed JSON body (undefined when it is not JSON) and
 *   all headers (lower-cased names).
 * - Answers 200 unless scripted: `replies(...)` answers the next requests in sequence (then 200),
 *   `reply(fn)` decides per request. A reply may carry headers (e.g. `retry-after`), a body and
 *   `delayMs` (answer late — for sender timeouts). `close()` also cuts replies still waiting.
 * - `waitFor(pred)` polls until the received requests satisfy `pred`, and says what did arrive
 *   when they never do.
 * - `verifyStandardWebhook(secret, w)` checks a received request's signature independently of the
 *   code under test.
 *
 *   const hook = await WebhookReceiver.start();
 *   hook.replies({ status: 503 }, { status: 200, delayMs: 100 });
 *   // … register hook.url and make the system send …
 *   const [first] = await hook.waitFor((all) => all.length >= 2);
 *   expect(verifyStandardWebhook(secret, first!)).toBe(true);
 *   await hook.close();
 */

export interface ReceivedWebhook {
  /** `webhook-id` ('' when absent). */
  id: string;
  /** `webhook-timestamp` (unix seconds as sent; '' when absent). */
  timestamp: string;
  /** `webhook-signature` as sent: space-separated `v1,<base64>` entries ('' when absent). */
  signature: string;
  /** The raw body (utf8). */
  body: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: any;
  /** ms epoch when the request arrived. */
  receivedAt: number;
  /** Request path, without the query string. */
  path: string;
  /** All headers, lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
}

export type ReceiverReply = { status: number; headers?: Record<string, string>; delayMs?: number; body?: string };

type ReplyFn = (req: ReceivedWebhook, n: number) => ReceiverReply;

const OK: ReceiverReply = { status: 200 };

export class WebhookReceiver {
  /** e.g. `http://127.0.0.1:PORT/hook` (any path is accepted and recorded). */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly received: ReceivedWebhook[] = [];
  /** The status each received request was answered with (null while not yet answered / cut). */
  private readonly answered: (number | null)[] = [];
  private replyFn: ReplyFn = () => OK;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    host: string,
    readonly port: number,
  ) {
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/hook`;
  }

  static async start(opts: { host?: string } = {}): Promise<WebhookReceiver> {
    const host = opts.host ?? '127.0.0.1';
    return startFakeHttpServer(
      (server, port) => new WebhookReceiver(server, host, port),
      (receiver, req, res) => receiver.handle(req, res),
      { host },
    );
  }

  /** Decides every following answer; `n` is the 1-based count of requests received so far (this one included). */
  reply(fn: (req: ReceivedWebhook, n: number) => ReceiverReply): void {
    this.replyFn = fn;
  }

  /** Answers the next requests with these replies, in order, then 200 for the rest. */
  replies(...seq: ReceiverReply[]): void {
    const queue = [...seq];
    this.replyFn = () => queue.shift() ?? OK;
  }

  /** Resolves with (a copy of) `received` once `pred` holds; rejects after `timeoutMs` (default 5000) saying what arrived. */
  async waitFor(pred: (all: ReceivedWebhook[]) => boolean, timeoutMs = 5_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (pred(this.received)) return [...this.received];
      if (Date.now() >= deadline) throw new Error(`WebhookReceiver.waitFor: condition not met within ${timeoutMs}ms; ${this.describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops listening and destroys open connections (including replies still delayed). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await closeFakeHttpServer(this.server);
  }

  private describe(): string {
    if (this.received.length === 0) return 'received nothing';
    const lines = this.received.map((w, i) => {
      const body = w.body.length > 200 ? `${w.body.slice(0, 200)}…` : w.body;
      return `  #${i + 1} ${w.path} id=${w.id || '-'} ts=${w.timestamp || '-'} → ${this.answered[i] ?? 'unanswered'} ${body}`;
    });
    return `received ${this.received.length}:\n${lines.join('\n')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const body = await readFakeBody(req);
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const headers = flatten(req.headers);
    const webhook: ReceivedWebhook = {
      id: headers['webhook-id'] ?? '',
      timestamp: headers['webhook-timestamp'] ?? '',
      signature: headers['webhook-signature'] ?? '',
      body,
      json,
      receivedAt,
      path: (req.url ?? '/').split('?')[0]!,
      headers,
    };
    this.received.push(webhook);
    this.answered.push(null);
    const index = this.received.length - 1;

    let answer: ReceiverReply;
    try {
      answer = this.replyFn(webhook, index + 1) ?? OK;
    } catch {
      answer = { status: 500, body: 'WebhookReceiver: the reply function threw' };
    }
    if (answer.delayMs && answer.delayMs > 0) await this.sleep(answer.delayMs);
    if (res.destroyed || this.closed) return;
    const payload = answer.body ?? '';
    res.writeHead(answer.status, { 'content-length': Buffer.byteLength(payload), ...answer.headers });
    res.end(payload);
    this.answered[index] = answer.status;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      t.unref();
      this.timers.add(t);
    });
  }
}

/**
 * Standard Webhooks 1.0 verification, written independently of the code under test: HMAC-SHA256
 * over `${id}.${timestamp}.${body}` keyed with the base64 secret after the `whsec_` prefix,
 * base64-encoded; the signature header may hold several space-separated `v1,<sig>` entries (other
 * versions are ignored). True when any entry verifies with `secret` (constant-time compare). The
 * timestamp's freshness is not checked: tests assert on it themselves.
 */
export function verifyStandardWebhook(secret: string, w: Pick<ReceivedWebhook, 'id' | 'timestamp' | 'signature' | 'body'>): boolean {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) return false;
  const expected = Buffer.from(createHmac('sha256', key).update(`${w.id}.${w.timestamp}.${w.body}`).digest('base64'));
  let ok = false;
  for (const entry of w.signature.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1));
    if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
  }
  return ok;
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
