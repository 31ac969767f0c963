/**
 * One agent session of `{base}/mcp/{name}` (DESIGN 6.13): who opened it, on which server, on
 * which path, and what the agent was offered. Kept where every replica reads it, so any replica
 * serves the session's requests, and a restart of the one that opened it ends nothing.
 */
export interface McpSession {
  id: string;
  orgId: string;
  /** The API key that opened it: only that key may use or end it. */
  keyId: string;
  /** The registered MCP server's name. */
  server: string;
  /** Opened with a mandate: every request must carry one, never falling back to the legacy path. */
  mandatePath: boolean;
  /** The capabilities the agent was offered at initialize (the upstream's, as the gateway's). */
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** The upstream's own session, resumed by whichever replica serves a request. */
  upstream: { sessionId?: string; protocolVersion?: string };
}

/** Whether `session` is the caller's (same org and key) on `server`: anything else is "not found". */
export function sessionOwnedBy(session: McpSession, caller: { orgId: string; keyId: string }, server: string): boolean {
  return session.orgId === caller.orgId && session.keyId === caller.keyId && session.server === server;
}

/** A session id as the gateway issues them (random UUIDs), and so the only ones a store is asked for. */
export const MCP_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
