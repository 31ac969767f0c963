import { fetch as undiciFetch } from 'undici';
import { safeDispatcher } from '@igw/http';
import { UPSTREAM_DEADLINE_MS } from './mcp-proxy-session';

/**
 * The fetch the MCP proxy reaches upstreams with: the address connected to is the address
 * checked (private, loopback and link-local refused unless allowed), and a connection that
 * cannot be made within the upstream deadline fails.
 */
export function upstreamFetch(allowPrivate: boolean): typeof fetch {
  const dispatcher = safeDispatcher({ allowPrivate, timeoutMs: UPSTREAM_DEADLINE_MS });
  return ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}
