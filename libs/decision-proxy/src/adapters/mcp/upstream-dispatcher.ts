import type { Dispatcher } from 'undici';
import { safeDispatcher } from '@igw/http';
import { UPSTREAM_DEADLINE_MS } from './mcp-session-server';

/**
 * The one pooled dispatcher the MCP proxy reaches upstreams with: the address connected to is the
 * address checked (private, loopback and link-local refused unless allowed), and a connection, an
 * answer's headers or a pause in its body past the upstream deadline fails.
 */
export function upstreamDispatcher(allowPrivate: boolean): Dispatcher {
  return safeDispatcher({ allowPrivate, timeoutMs: UPSTREAM_DEADLINE_MS, answerTimeoutMs: UPSTREAM_DEADLINE_MS });
}
