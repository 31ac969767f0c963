import { Agent, request } from 'undici';
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
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    timer.unref?.();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token !== undefined) headers['x-vault-token'] = options.token;
    if (options.namespace) headers['x-vault-namespace'] = options.namespace;
    try {
      const res = await request(`${this.base}/v1${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
        dispatcher: this.agent,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          throw new BrokerError('unavailable', 'vault', `vault answered the ${options.what} with more than ${MAX_BODY_BYTES} bytes`, { brokerStatus: res.statusCode });
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.statusCode, body };
    } catch (err) {
      if (timedOut) throw new BrokerError('timeout', 'vault', `vault gave no answer to the ${options.what} within ${options.timeoutMs} ms`);
      if (err instanceof BrokerError) throw err;
      const code = (err as { code?: unknown })?.code;
      throw new BrokerError('unavailable', 'vault', `vault is unreachable for the ${options.what}${typeof code === 'string' ? ` (${code})` : ''}`);
    } finally {
      clearTimeout(timer);
    }
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
