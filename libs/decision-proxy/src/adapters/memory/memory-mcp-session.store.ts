import type { McpSession } from '../../domain/mcp-session';
import type { McpSessionLimits, McpSessionStore } from '../../application/ports/mcp-session.store.port';

/**
 * Embedded mode's MCP sessions: one process serves them all, so memory is every replica there is.
 * Expired sessions are dropped as they are met and on each create (no timer).
 */
export class MemoryMcpSessionStore implements McpSessionStore {
  private readonly sessions = new Map<string, { session: McpSession; expiresAt: number }>();
  private readonly byOrg = new Map<string, Set<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  async create(session: McpSession, limits: McpSessionLimits): Promise<boolean> {
    const ids = this.byOrg.get(session.orgId) ?? new Set<string>();
    for (const id of ids) this.live(id);
    if (ids.size >= limits.maxPerOrg) return false;
    ids.add(session.id);
    this.byOrg.set(session.orgId, ids);
    this.sessions.set(session.id, { session, expiresAt: this.now() + limits.idleMs });
    return true;
  }

  async get(orgId: string, id: string): Promise<McpSession | null> {
    const entry = this.live(id);
    return entry && entry.session.orgId === orgId ? entry.session : null;
  }

  async touch(session: McpSession, idleMs: number): Promise<void> {
    const entry = this.live(session.id);
    if (entry) entry.expiresAt = this.now() + idleMs;
  }

  async update(session: McpSession): Promise<void> {
    const entry = this.live(session.id);
    if (entry) entry.session = session;
  }

  async delete(session: McpSession): Promise<void> {
    this.drop(session.id);
  }

  private live(id: string): { session: McpSession; expiresAt: number } | null {
    const entry = this.sessions.get(id);
    if (!entry) return null;
    if (entry.expiresAt > this.now()) return entry;
    this.drop(id);
    return null;
  }

  private drop(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    const ids = this.byOrg.get(entry.session.orgId);
    ids?.delete(id);
    if (ids && ids.size === 0) this.byOrg.delete(entry.session.orgId);
  }
}
