import type { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { request, type Agent } from 'undici';
import { destinationHost, destinationProblem, isDestinationRefused, isPublicAddress, safeDispatcher } from '@igw/http';
import { parseRetryAfter, type AttemptResult } from '../../domain';
import type { OutgoingWebhook, WebhookSender } from '../../application/ports/webhook-sender.port';

export interface HttpWebhookSenderOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: also send to private, loopback and link-local addresses (dev and tests). */
  allowPrivate: boolean;
  /** One deadline for connect, answer and body (DESIGN 6.11: 10 s). */
  timeoutMs: number;
  /** Injected in tests; node's dns.lookup otherwise. */
  lookup?: typeof dnsLookup;
}

/**
 * Delivers over HTTP(S) with undici: POST, redirects not followed (a 3xx is a failed attempt), the
 * response body discarded, one deadline per attempt. Destinations are checked at connect time
 * (names) or before connecting (IP literals).
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    this.agent = safeDispatcher({
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
      ...(options.lookup ? { lookup: options.lookup } : {}),
      // At least a round's worth per origin: an attempt's deadline must not be spent queueing for
      // a connection behind other deliveries to the same receiver.
      connections: 128,
      keepAliveTimeout: 10_000,
    });
  }

  async send(out: OutgoingWebhook): Promise<AttemptResult> {
    let host: string;
    try {
      host = destinationHost(out.url);
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
      const refused = isDestinationRefused(e);
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

  destinationProblem(url: string): Promise<string | null> {
    return destinationProblem(url, { allowPrivate: this.options.allowPrivate, ...(this.options.lookup ? { lookup: this.options.lookup } : {}) });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
