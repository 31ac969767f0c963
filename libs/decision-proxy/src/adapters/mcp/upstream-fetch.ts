import { fetch as undiciFetch, Response as UndiciResponse } from 'undici';
import { safeDispatcher } from '@igw/http';
import { UPSTREAM_DEADLINE_MS } from './mcp-request-server';

/** Largest answer the proxy reads from an upstream (one JSON body, or one SSE stream in all). */
export const MAX_UPSTREAM_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Statuses whose responses carry no body (and may not be rebuilt with one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * The fetch the MCP proxy reaches upstreams with: the address connected to is the address
 * checked (private, loopback and link-local refused unless allowed), a connection that cannot be
 * made within the upstream deadline fails, and an answer larger than `maxBytes` fails as it
 * streams in instead of filling the gateway's memory.
 */
export function upstreamFetch(allowPrivate: boolean, maxBytes = MAX_UPSTREAM_RESPONSE_BYTES): typeof fetch {
  const dispatcher = safeDispatcher({ allowPrivate, timeoutMs: UPSTREAM_DEADLINE_MS });
  const limited = async (url: string | URL, init?: RequestInit) => {
    const res = await undiciFetch(url, { ...(init as object), dispatcher });
    if (res.body === null || NO_BODY.has(res.status)) return res;
    let seen = 0;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new Error(`the upstream answered more than ${maxBytes} bytes`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new UndiciResponse(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return limited as unknown as typeof fetch;
}
