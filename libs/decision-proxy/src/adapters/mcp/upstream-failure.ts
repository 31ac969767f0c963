import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The longest upstream failure text an agent is shown. */
export const UPSTREAM_FAILURE_MAX_CHARS = 200;

/**
 * What an agent is told about an upstream that failed (`upstream_unavailable`): an HTTP error the
 * upstream answered is reduced to its status line ("upstream answered HTTP 502"), never its body
 * (the SDK puts the whole body in the message: stack traces, internal hosts, echoed headers); any
 * other failure (no connection, a timeout) is its message on one line, capped.
 */
export function upstreamFailureText(err: unknown): string {
  if (err instanceof StreamableHTTPError || (err instanceof Error && err.message.startsWith('Streamable HTTP error:'))) {
    const status = (err as { code?: unknown }).code;
    return typeof status === 'number' && status >= 100 && status <= 599 ? `upstream answered HTTP ${status}` : 'upstream answered with an unexpected response';
  }
  const text = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  return text.length > UPSTREAM_FAILURE_MAX_CHARS ? `${text.slice(0, UPSTREAM_FAILURE_MAX_CHARS - 1)}…` : text;
}
