import type { McpSession } from '../../domain/mcp-session';

export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');

/** How long an unused session lives, and how many one organisation may hold at once. */
export interface McpSessionLimits {
  idleMs: number;
  maxPerOrg: number;
}

/**
 * Where MCP sessions live (DESIGN 6.13 "Replicas"): Redis in distributed mode (every replica,
 * across restarts), memory in embedded mode (one process). Unreachable → DependencyUnavailableError
 * (503): a session is never served on a guess.
 */
export interface McpSessionStore {
  /** Stores a new session; false when its org already holds `maxPerOrg` live sessions. */
  create(session: McpSession, limits: McpSessionLimits): Promise<boolean>;
  /** The org's live session `id`, or null (unknown, expired, ended, or another org's). */
  get(orgId: string, id: string): Promise<McpSession | null>;
  /** Keeps a session in use alive for another `idleMs`. */
  touch(session: McpSession, idleMs: number): Promise<void>;
  /** Replaces what is stored (the upstream session changed), keeping its expiry. */
  update(session: McpSession): Promise<void>;
  /** Ends it everywhere. */
  delete(session: McpSession): Promise<void>;
}
