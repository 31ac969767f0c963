import { Agent } from 'undici';
import { boundedRequest, OutboundRequestError } from '@igw/http';
import { BrokerError, redactBrokerText } from '../application/brokers';

/** Bound on a broker's answer body. */
export const MAX_BROKER_BODY_BYTES = 64 * 1024;

/**
 * The HTTP leg every JWT broker (Vault login, Conjur authn-jwt) shares: a keep-alive pool and
 * one deadline per call (connect, answer and body). A call without a complete answer becomes
 * BrokerError `timeout`, a too-large body or a connection failure `unavailable`; any HTTP
 * status is returned to the caller, who decides (usually with `throwUnlessBrokerOk`).
 */
export class BrokerHttp {
  private readonly agent: Agent;

  constructor(
    private readonly broker: string,
    connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ connections: 16, keepAliveTimeout: 30_000, connect: { timeout: connectTimeoutMs } });
  }

  /** `what` names the call in errors ("login", "authentication"); headers and body never appear in one. */
  async request(
    url: string,
    options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; timeoutMs: number; what: string },
  ): Promise<{ status: number; text: string }> {
    const { what, timeoutMs } = options;
    try {
      return await boundedRequest(url, {
        method: options.method,
        headers: options.headers,
        body: options.body,
        dispatcher: this.agent,
        timeoutMs,
        maxBytes: MAX_BROKER_BODY_BYTES,
      });
    } catch (err) {
      if (!(err instanceof OutboundRequestError)) throw err;
      if (err.failure === 'timeout') throw new BrokerError('timeout', this.broker, `${this.broker} gave no answer to the ${what} within ${timeoutMs} ms`);
      if (err.failure === 'too_large') {
        throw new BrokerError('unavailable', this.broker, `${this.broker} answered the ${what} with more than ${MAX_BROKER_BODY_BYTES} bytes`, {
          brokerStatus: err.status,
        });
      }
      throw new BrokerError('unavailable', this.broker, `${this.broker} is unreachable for the ${what}${err.code ? ` (${err.code})` : ''}`);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * Nothing for a 2xx. Otherwise a 4xx (but 429) is BrokerError `rejected`, anything else
 * `unavailable`; `detail` (the broker's own error text) goes along with the secrets redacted.
 */
export function throwUnlessBrokerOk(broker: string, what: string, status: number, detail: string, secrets: string[]): void {
  if (status >= 200 && status <= 299) return;
  const options = { brokerStatus: status, detail: redactBrokerText(detail, secrets) || undefined };
  if (status >= 400 && status <= 499 && status !== 429) throw new BrokerError('rejected', broker, `${broker} rejected the ${what} (HTTP ${status})`, options);
  throw new BrokerError('unavailable', broker, `${broker} answered the ${what} with HTTP ${status}`, options);
}
