import { Agent } from 'undici';
import { boundedRequest, OutboundRequestError } from '@igw/http';
import { BrokerError } from '../../application/brokers';

/** A Vault answer: its status and its JSON body (undefined when empty or not JSON). */
export interface VaultAnswer {
  status: number;
  body: unknown;
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * JSON calls to Vault's HTTP API (`{VAULT_ADDR}/v1/...`) over a keep-alive pool, each bounded
 * by one deadline (connect, answer and body). A call that gets no complete answer becomes
 * BrokerError `timeout`, a connection failure `unavailable`; any HTTP status is returned to the
 * caller, who decides. Tokens go in `X-Vault-Token`, the namespace (Vault Enterprise) in
 * `X-Vault-Namespace`; neither ever appears in an error.
 */
export class VaultHttp {
  private readonly agent: Agent;
  private readonly base: string;

  constructor(addr: string, timeoutMs: number) {
    this.base = addr.replace(/\/+$/, '');
    this.agent = new Agent({ connections: 16, keepAliveTimeout: 30_000, connect: { timeout: timeoutMs } });
  }

  async call(
    method: 'GET' | 'POST',
    /** Path under `/v1`, already encoded, e.g. `/auth/jwt/login`. */
    path: string,
    options: { body?: unknown; token?: string; namespace?: string; timeoutMs: number; what: string },
  ): Promise<VaultAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token !== undefined) headers['x-vault-token'] = options.token;
    if (options.namespace) headers['x-vault-namespace'] = options.namespace;
    let answer: { status: number; text: string };
    try {
      answer = await boundedRequest(`${this.base}/v1${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        dispatcher: this.agent,
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_BODY_BYTES,
      });
    } catch (err) {
      if (!(err instanceof OutboundRequestError)) throw err;
      if (err.failure === 'timeout') throw new BrokerError('timeout', 'vault', `vault gave no answer to the ${options.what} within ${options.timeoutMs} ms`);
      if (err.failure === 'too_large') {
        throw new BrokerError('unavailable', 'vault', `vault answered the ${options.what} with more than ${MAX_BODY_BYTES} bytes`, { brokerStatus: err.status });
      }
      throw new BrokerError('unavailable', 'vault', `vault is unreachable for the ${options.what}${err.code ? ` (${err.code})` : ''}`);
    }
    let body: unknown;
    try {
      body = answer.text ? (JSON.parse(answer.text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    return { status: answer.status, body };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** Vault's error strings (`{"errors": [...]}`), joined; '' when the body has none. */
export function vaultErrors(body: unknown): string {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string').join('; ') : '';
}
