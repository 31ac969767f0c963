import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Agent, type Dispatcher } from 'undici';
import { AppError, type Caller } from '@igw/kernel';
import { MCP_SESSION_ID, sessionOwnedBy, type McpSession } from '../../domain/mcp-session';
import { MCP_SESSION_STORE, type McpSessionStore } from '../../application/ports/mcp-session.store.port';
import { MCP_UPSTREAMS, type McpUpstreams, type OpenedMcpUpstream } from '../../application/ports/mcp-upstreams.port';
import { EnforceMcpToolCallUseCase } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { GATEWAY_INFO, gatewayCapabilities, mcpSessionServer, UPSTREAM_DEADLINE_MS, type UpstreamLink } from './mcp-session-server';
import { AgentJsonRpcTransport } from './agent-json-rpc.transport';
import { UpstreamHttpTransport } from './upstream-http.transport';

export const MCP_SESSION_OPTIONS = Symbol('MCP_SESSION_OPTIONS');
export interface McpSessionOptions {
  /** The pooled dispatcher of upstream requests (refuses private destinations unless allowed). */
  dispatcher?: Dispatcher;
  /** A session unused this long ends (default 30 min). */
  idleMs?: number;
  /** Most live sessions of one organisation, across every replica (default 1,000). */
  maxSessionsPerOrg?: number;
  /** Most upstream connections this process keeps open (default 10,000); the least used beyond are closed, and resumed when needed. */
  maxConnections?: number;
}

/**
 * A session as this replica serves it: the agent side (one SDK server on a JSON-RPC transport,
 * built at first use) and the connection to its upstream, resumed from the stored upstream session.
 */
class LiveUpstream implements UpstreamLink {
  lastUsed = Date.now();
  private client: Promise<Client> | null = null;
  agent: { server: Server; transport: AgentJsonRpcTransport } | null = null;

  constructor(
    readonly upstream: OpenedMcpUpstream,
    private session: McpSession,
    private readonly dispatcher: Dispatcher,
    /** Told when the upstream had to be opened again (a new upstream session to store). */
    private readonly reopened: (session: McpSession) => Promise<void>,
  ) {}

  /** Opens a new upstream session (initialize); null when the upstream cannot be reached now. */
  static async open(upstream: OpenedMcpUpstream, dispatcher: Dispatcher): Promise<Client | null> {
    return LiveUpstream.connect(upstream, dispatcher, undefined).catch(() => null);
  }

  adopt(client: Client): void {
    this.client = Promise.resolve(client);
  }

  async withClient<T>(use: (client: Client) => Promise<T>): Promise<T> {
    this.lastUsed = Date.now();
    const client = await this.connected();
    try {
      return await use(client);
    } catch (err) {
      // The upstream forgot its session (restarted, expired): nothing was done; open a new one.
      if (!(err instanceof StreamableHTTPError && err.code === 404)) throw err;
      await this.close();
      const fresh = LiveUpstream.connect(this.upstream, this.dispatcher, undefined);
      this.client = fresh;
      const reopened = await fresh.catch((e: unknown) => {
        this.client = null;
        throw e;
      });
      this.session = { ...this.session, upstream: upstreamSessionOf(reopened) };
      await this.reopened(this.session);
      return use(reopened);
    }
  }

  private connected(): Promise<Client> {
    if (this.client === null) {
      const pending = LiveUpstream.connect(this.upstream, this.dispatcher, this.session.upstream);
      this.client = pending;
      // A failed connection is forgotten so the next request retries.
      pending.catch(() => {
        if (this.client === pending) this.client = null;
      });
    }
    return this.client;
  }

  private static async connect(upstream: OpenedMcpUpstream, dispatcher: Dispatcher, resume: McpSession['upstream'] | undefined): Promise<Client> {
    const client = new Client(GATEWAY_INFO, { capabilities: {} });
    // Resuming the stored upstream session: the SDK client then skips initialize.
    const transport = new UpstreamHttpTransport(new URL(upstream.server.url), {
      dispatcher,
      headers: upstream.headers,
      ...(resume?.sessionId ? { sessionId: resume.sessionId } : {}),
    });
    if (resume?.sessionId && resume.protocolVersion) transport.setProtocolVersion(resume.protocolVersion);
    await client.connect(transport, { timeout: UPSTREAM_DEADLINE_MS });
    return client;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await (await client.catch(() => null))?.close().catch(() => undefined);
  }

  /** Closes both sides on this replica (the session itself lives on in the store). */
  async dispose(): Promise<void> {
    const agent = this.agent;
    this.agent = null;
    await agent?.server.close().catch(() => undefined);
    await this.close();
  }

  /** Ends the upstream's session too (the agent ended its own), connected here or not. */
  async terminate(): Promise<void> {
    const client = await this.client?.catch(() => null);
    const transport =
      (client?.transport as UpstreamHttpTransport | undefined) ??
      (this.session.upstream.sessionId
        ? new UpstreamHttpTransport(new URL(this.upstream.server.url), {
            dispatcher: this.dispatcher,
            headers: this.upstream.headers,
            sessionId: this.session.upstream.sessionId,
          })
        : undefined);
    await transport?.terminateSession().catch(() => undefined);
    await this.dispose();
  }

  /** Requests of its agent still waiting for their answers on this replica. */
  get busy(): boolean {
    return this.agent?.transport.busy === true;
  }
}

const upstreamSessionOf = (client: Client): McpSession['upstream'] => {
  const transport = client.transport as UpstreamHttpTransport | undefined;
  return {
    ...(transport?.sessionId ? { sessionId: transport.sessionId } : {}),
    ...(transport?.protocolVersion ? { protocolVersion: transport.protocolVersion } : {}),
  };
};

/**
 * The MCP sessions of `{base}/mcp/{name}` (DESIGN 6.13, decision 0020): each lives in the session
 * store (Redis when distributed), so any replica serves any request of it, and a restart ends
 * none. Each HTTP request gets its own SDK server and stateless transport built from the stored
 * session; the upstream connection is resumed on the replica that needs it (the upstream's own
 * session id is stored too).
 */
@Injectable()
export class McpSessions implements OnApplicationShutdown {
  private readonly live = new Map<string, LiveUpstream>();
  /** Resumptions under way, so concurrent first requests on this replica share one. */
  private readonly resuming = new Map<string, Promise<LiveUpstream | null>>();
  private readonly dispatcher: Dispatcher;
  private readonly touched = new Map<string, number>();
  private readonly idleMs: number;
  private readonly maxPerOrg: number;
  private readonly maxConnections: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly enforce: EnforceMcpToolCallUseCase,
    private readonly listTools: ListMcpToolsUseCase,
    @Inject(MCP_SESSION_STORE) private readonly store: McpSessionStore,
    @Inject(MCP_UPSTREAMS) private readonly upstreams: McpUpstreams,
    @Optional() @Inject(MCP_SESSION_OPTIONS) private readonly options: McpSessionOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.maxPerOrg = options.maxSessionsPerOrg ?? 1_000;
    this.maxConnections = options.maxConnections ?? 10_000;
    this.dispatcher = options.dispatcher ?? new Agent();
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, this.idleMs)).unref();
  }

  /** A new session of `caller` on `upstream`, stored; rate_limited when the org holds its cap. */
  async open(caller: Caller, mandatePath: boolean, upstream: OpenedMcpUpstream): Promise<McpSession> {
    // The upstream is asked for its capabilities first (the agent sees them as the gateway's); an
    // upstream that cannot be reached yet still gets a session offering tools, whose calls then
    // answer upstream_unavailable until it is back.
    const client = await LiveUpstream.open(upstream, this.dispatcher);
    const session: McpSession = {
      id: randomUUID(),
      orgId: caller.orgId,
      keyId: caller.keyId,
      server: upstream.server.name,
      mandatePath,
      capabilities: gatewayCapabilities(client?.getServerCapabilities()) as Record<string, unknown>,
      ...(client?.getInstructions() ? { instructions: client.getInstructions() } : {}),
      upstream: client ? upstreamSessionOf(client) : {},
    };
    if (!(await this.store.create(session, { idleMs: this.idleMs, maxPerOrg: this.maxPerOrg }))) {
      await client?.close().catch(() => undefined);
      throw new AppError('rate_limited', 'rate_limited', `this organisation has ${this.maxPerOrg} MCP sessions open; end some (DELETE) or let them expire`);
    }
    const live = this.liveFor(session, upstream);
    if (client) live.adopt(client);
    return session;
  }

  /** The session `id` if `caller` owns it on `name` (any replica opened it); else null (MCP: 404). */
  async find(id: string, caller: Caller, name: string): Promise<McpSession | null> {
    if (!MCP_SESSION_ID.test(id)) return null;
    const session = await this.store.get(caller.orgId, id);
    if (!session || !sessionOwnedBy(session, caller, name)) return null;
    // Kept alive on use, at most once a tenth of the idle time per replica.
    const now = Date.now();
    if (now - (this.touched.get(id) ?? 0) > this.idleMs / 10) {
      this.touched.set(id, now);
      await this.store.touch(session, this.idleMs);
    }
    return session;
  }

  /**
   * Hands one POST's messages to the session's server on this replica (built at first use) and
   * answers its requests. Null when the session's server is no longer registered (the session
   * ends: 404). `gone` aborts what is still waiting when the agent goes away.
   */
  async serve(session: McpSession, messages: JSONRPCMessage[], authInfo: AuthInfo, gone: AbortSignal): Promise<JSONRPCMessage[] | null> {
    const live = this.live.get(session.id) ?? (await this.resume(session));
    if (live === null) return null;
    live.lastUsed = Date.now();
    if (live.agent === null) {
      const server = mcpSessionServer(session, live, { enforce: this.enforce, listTools: this.listTools });
      const transport = new AgentJsonRpcTransport();
      live.agent = { server, transport };
      await server.connect(transport);
    }
    return live.agent.transport.receive(messages, authInfo, gone);
  }

  /** Ends the session on every replica, and its upstream session. */
  async end(session: McpSession): Promise<void> {
    await this.store.delete(session);
    const live = this.live.get(session.id) ?? (await this.resume(session));
    this.forget(session.id);
    await live?.terminate();
  }

  private resume(session: McpSession): Promise<LiveUpstream | null> {
    const pending = this.resuming.get(session.id);
    if (pending) return pending;
    const resumed = (async () => {
      const upstream = await this.upstreams.resolve(session.orgId, session.server);
      if (upstream === null) {
        await this.store.delete(session);
        return null;
      }
      return this.liveFor(session, upstream);
    })().finally(() => this.resuming.delete(session.id));
    this.resuming.set(session.id, resumed);
    return resumed;
  }

  private liveFor(session: McpSession, upstream: OpenedMcpUpstream): LiveUpstream {
    const live = new LiveUpstream(upstream, session, this.dispatcher, (s) => this.store.update(s));
    this.live.set(session.id, live);
    if (this.live.size > this.maxConnections) void this.closeLeastUsed();
    return live;
  }

  private forget(id: string): void {
    this.live.delete(id);
    this.touched.delete(id);
  }

  private async closeLeastUsed(): Promise<void> {
    // A session with calls in flight is not closed under them.
    const idle = [...this.live.entries()].filter(([, live]) => !live.busy);
    const excess = idle.sort((a, b) => a[1].lastUsed - b[1].lastUsed).slice(0, this.live.size - this.maxConnections);
    for (const [id, live] of excess) {
      this.forget(id);
      await live.dispose();
    }
  }

  /** Closes upstream connections unused for the idle time (the sessions themselves expire in the store). */
  private async sweep(): Promise<void> {
    const oldest = Date.now() - this.idleMs;
    // A session found here but served elsewhere since leaves only its touch time behind.
    for (const [id, at] of this.touched) if (at < oldest) this.touched.delete(id);
    for (const [id, live] of this.live) {
      if (live.lastUsed < oldest && !live.busy) {
        this.forget(id);
        await live.dispose();
      }
    }
  }

  /** After the HTTP server drained (not on module destroy: calls in flight still use their upstream). */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.live.values()];
    this.live.clear();
    this.touched.clear();
    // Closed, not terminated: the sessions go on, on another replica or after the restart.
    await Promise.all(all.map((l) => l.dispose()));
  }
}
