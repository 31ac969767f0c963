import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress, parseRetryAfter, type AttemptResult } from '../../domain';
import type { OutgoingWebhook, WebhookSender } from '../../application/ports/webhook-sender.port';

export interface HttpWebhookSenderOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: also send to private, loopback and link-local addresses (dev and tests). */
  allowPrivate: boolean;
  /** One deadline for connect, answer and body (DESIGN 6.11: 10 s). */
  timeoutMs: number;
  /** Injected in tests; node's dns.lookup otherwise. */
  lookup?: typeof dnsLookup;
}

export class DestinationRefusedError extends Error {}

/**
 * A `lookup` for the connection that refuses names resolving to non-public addresses, so the
 * address checked is the address connected to (no DNS-rebinding window between check and use).
 */
export function safeLookup(allowPrivate: boolean, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = (addresses as unknown as LookupAddress[]).filter((a) => allowPrivate || isPublicAddress(a.address));
      const [first] = list;
      if (!first) return callback(new DestinationRefusedError(`${hostname} resolves only to private, loopback or link-local addresses`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Delivers over HTTP(S) with undici: POST, redirects not followed (a 3xx is a failed attempt), the
 * response body discarded, one deadline per attempt. Destinations are checked at connect time
 * (names) or before connecting (IP literals).
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    this.agent = new Agent({
      // At least a round's worth per origin: an attempt's deadline must not be spent queueing for
      // a connection behind other deliveries to the same receiver.
      connections: 128,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs, lookup: safeLookup(options.allowPrivate, options.lookup) },
    });
  }

  async send(out: OutgoingWebhook): Promise<AttemptResult> {
    let host: string;
    try {
      host = new URL(out.url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return { status: null, error: 'invalid url' };
    }
    if (isIP(host) && !this.options.allowPrivate && !isPublicAddress(host)) return { status: null, error: `destination ${host} is not a public address` };
    try {
      const res = await request(out.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'intent-gateway-webhooks/1', ...out.headers },
        body: out.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const retryAfter = res.headers['retry-after'];
      return { status: res.statusCode, retryAfterS: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, new Date()) };
    } catch (err) {
      const e = err as Error & { cause?: Error };
      const refused = e instanceof DestinationRefusedError || e.cause instanceof DestinationRefusedError;
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.name ?? '') || /Timeout/.test(e.constructor?.name ?? '');
      return {
        status: null,
        error: refused
          ? (e.cause ?? e).message
          : timedOut
            ? `no answer within ${this.options.timeoutMs} ms`
            : `${e.message}${e.cause ? `: ${e.cause.message}` : ''}`,
      };
    }
  }

  async destinationProblem(url: string): Promise<string | null> {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return this.options.allowPrivate || isPublicAddress(host) ? null : `url points at ${host}, which is not a public address`;
    const resolve = this.options.lookup ?? dnsLookup;
    const addresses = await new Promise<LookupAddress[] | null>((done) =>
      resolve(host, { all: true }, (err, list) => done(err ? null : (list as unknown as LookupAddress[]))),
    );
    if (addresses === null || addresses.length === 0) return `url host ${host} does not resolve`;
    if (this.options.allowPrivate) return null;
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    return bad ? `url host ${host} resolves to ${bad.address}, which is not a public address` : null;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
