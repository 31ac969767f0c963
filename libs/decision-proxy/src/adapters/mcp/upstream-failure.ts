import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isDestinationRefused } from '@igw/http';

const NETWORK_FAILURES: readonly [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'upstream connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/, 'upstream host name not resolved'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, 'upstream closed the connection'],
  [/TIMEOUT|ETIMEDOUT/, 'upstream did not answer within the deadline'],
  [/CERT|TLS|SSL|ALTNAME/, 'upstream TLS handshake failed'],
];

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? code : undefined;
};

/** The longest upstream failure text an agent is shown. */
export const UPSTREAM_FAILURE_MAX_CHARS = 200;

/**
 * What an agent is told about an upstream that failed (`upstream_unavailable`): an HTTP error the
 * upstream answered is reduced to its status line ("upstream answered HTTP 502"), never its body
 * (stack traces, internal hosts, echoed headers); a connection failure to a fixed phrase by its
 * code (never the address, host or certificate names in its message); anything else (a timeout
 * of the SDK, our own size cap) is its message on one line, capped.
 */
export function upstreamFailureText(err: unknown): string {
  if (err instanceof StreamableHTTPError || (err instanceof Error && err.message.startsWith('Streamable HTTP error:'))) {
    const status = (err as { code?: unknown }).code;
    return typeof status === 'number' && status >= 100 && status <= 599 ? `upstream answered HTTP ${status}` : 'upstream answered with an unexpected response';
  }
  if (isDestinationRefused(err)) return 'upstream address refused (not a public address)';
  // Connection failures by their code: their messages name addresses, host names, certificate names.
  const code = codeOf(err) ?? codeOf((err as { cause?: unknown } | null)?.cause);
  if (code !== undefined) {
    const known = NETWORK_FAILURES.find(([pattern]) => pattern.test(code));
    return known ? known[1] : `upstream connection failed (${code.replace(/[^A-Z0-9_]/g, '').slice(0, 40)})`;
  }
  const text = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  return text.length > UPSTREAM_FAILURE_MAX_CHARS ? `${text.slice(0, UPSTREAM_FAILURE_MAX_CHARS - 1)}…` : text;
}
