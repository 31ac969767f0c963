import { BrokerHttp } from '../broker-http';

/** A Vault answer: its status and its JSON body (undefined when empty or not JSON). */
export interface VaultAnswer {
  status: number;
  body: unknown;
}

/**
 * JSON calls to Vault's HTTP API (`{VAULT_ADDR}/v1/...`) over a keep-alive pool, each bounded
 * by one deadline (connect, answer and body). A call that gets no complete answer becomes
 * BrokerError `timeout`, a connection failure `unavailable`; any HTTP status is returned to the
 * caller, who decides. Tokens go in `X-Vault-Token`, the namespace (Vault Enterprise) in
 * `X-Vault-Namespace`; neither ever appears in an error.
 */
export class VaultHttp {
  private readonly http: BrokerHttp;
  private readonly base: string;

  constructor(addr: string, timeoutMs: number) {
    this.base = addr.replace(/\/+$/, '');
    this.http = new BrokerHttp('vault', timeoutMs);
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
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const answer = await this.http.request(`${this.base}/v1${path}`, { method, headers, body, timeoutMs: options.timeoutMs, what: options.what });
    let json: unknown;
    try {
      json = answer.text ? (JSON.parse(answer.text) as unknown) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, body: json };
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}

/** Vault's error strings (`{"errors": [...]}`), joined; '' when the body has none. */
export function vaultErrors(body: unknown): string {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string').join('; ') : '';
}
