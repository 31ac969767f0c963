import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { Caller } from '@igw/kernel';
import type { OpenedMcpUpstream } from '../../application/ports/mcp-upstreams.port';
import { EnforceMcpToolCallUseCase } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { McpProxySession } from './mcp-proxy-session';

export const MCP_SESSION_OPTIONS = Symbol('MCP_SESSION_OPTIONS');
export interface McpSessionOptions {
  /** Fetch for upstream requests (refuses private destinations unless allowed). */
  fetch?: typeof fetch;
  /** A session unused this long is closed (default 30 min). */
  idleMs?: number;
  /** Most sessions this process keeps open at once (default 10,000): a new one beyond is refused. */
  maxSessions?: number;
  /** Most sessions of one organisation in this process (default 1,000), so one tenant cannot fill the rest. */
  maxSessionsPerOrg?: number;
}

/**
 * The MCP sessions this process serves, by session id. A session lives in the process that
 * opened it (its upstream connection too); it is closed on DELETE, when its transport closes,
 * after `idleMs` without a request, and at shutdown.
 */
@Injectable()
export class McpSessions implements OnModuleDestroy {
  private readonly sessions = new Map<string, McpProxySession>();
  private readonly opening = new Set<McpProxySession>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly perOrg = new Map<string, number>();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly maxSessionsPerOrg: number;

  constructor(
    private readonly enforce: EnforceMcpToolCallUseCase,
    private readonly listTools: ListMcpToolsUseCase,
    @Optional() @Inject(MCP_SESSION_OPTIONS) private readonly options: McpSessionOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.maxSessionsPerOrg = options.maxSessionsPerOrg ?? 1_000;
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, this.idleMs)).unref();
  }

  get size(): number {
    return this.sessions.size + this.opening.size;
  }

  /** Why `orgId` may not open another session now (the process or the org is at its cap), or null. */
  refusal(orgId: string): string | null {
    if (this.size >= this.maxSessions) return 'too many MCP sessions are open on this gateway; retry later';
    if ((this.perOrg.get(orgId) ?? 0) >= this.maxSessionsPerOrg)
      return `this organisation has ${this.maxSessionsPerOrg} MCP sessions open; end some (DELETE) or let them expire`;
    return null;
  }

  private count(orgId: string, by: number): void {
    const n = (this.perOrg.get(orgId) ?? 0) + by;
    if (n > 0) this.perOrg.set(orgId, n);
    else this.perOrg.delete(orgId);
  }

  /** The session `id` if `caller` owns it (same org and key) and it serves `name`; else null. */
  find(id: string, caller: Caller, name: string): McpProxySession | null {
    const session = this.sessions.get(id);
    if (!session || session.owner.orgId !== caller.orgId || session.owner.keyId !== caller.keyId || session.serverName !== name) return null;
    session.lastUsed = Date.now();
    return session;
  }

  /** A new session (registered under its id once the initialize request went through it). */
  async open(caller: Caller, mandatePath: boolean, upstream: OpenedMcpUpstream): Promise<McpProxySession> {
    // Counted from the start: concurrent initializes cannot overshoot the org's cap.
    this.count(caller.orgId, 1);
    let session: McpProxySession;
    try {
      session = await this.create(caller, mandatePath, upstream);
    } catch (err) {
      this.count(caller.orgId, -1);
      throw err;
    }
    this.opening.add(session);
    return session;
  }

  private create(caller: Caller, mandatePath: boolean, upstream: OpenedMcpUpstream): Promise<McpProxySession> {
    return McpProxySession.open(
      caller,
      mandatePath,
      upstream,
      { enforce: this.enforce, listTools: this.listTools, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) },
      (id, s) => {
        this.opening.delete(s);
        this.sessions.set(id, s);
      },
      (id) => this.forget(id),
    );
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (session && this.sessions.delete(id)) this.count(session.owner.orgId, -1);
  }

  /** Forgets a session that never got an id (its initialize request failed). */
  abandon(session: McpProxySession): void {
    if (this.opening.delete(session)) {
      this.count(session.owner.orgId, -1);
      void session.close();
    }
  }

  private sweep(): void {
    const oldest = Date.now() - this.idleMs;
    for (const [id, session] of this.sessions) {
      if (session.lastUsed < oldest) {
        this.forget(id);
        void session.close();
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values(), ...this.opening];
    this.sessions.clear();
    this.opening.clear();
    this.perOrg.clear();
    await Promise.all(all.map((s) => s.close()));
  }
}
