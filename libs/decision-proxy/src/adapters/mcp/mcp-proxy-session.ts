import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  ResultSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError, type Caller } from '@igw/kernel';
import { maskToolResult } from '../../domain';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OpenedMcpUpstream } from '../../application/ports/mcp-upstreams.port';
import type { VerifiedMandate } from '../../application/decision-gate/tool-call-decision-gate';
import type { EnforceMcpToolCallUseCase, EnforcedMcpCall } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import type { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { upstreamFailureText } from './upstream-failure';

/** How long one upstream request may take before the agent gets `upstream_unavailable` (DESIGN 6.13). */
export const UPSTREAM_DEADLINE_MS = 30_000;
const GATEWAY_INFO = { name: 'intent-gateway', version: '0.6.0' };
/** MCP tool names (2025-06-18: 1–128 of these characters). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** What the session needs of the application and of the outside world. */
export interface McpProxySessionDeps {
  enforce: EnforceMcpToolCallUseCase;
  listTools: ListMcpToolsUseCase;
  /** Fetch for upstream requests: refuses private destinations unless allowed. */
  fetch?: typeof fetch;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Hands the mandate the HTTP layer verified for a request to the MCP messages it carries (the
 * SDK passes `req.auth` to every handler as `authInfo`): one verification per request.
 */
export function attachMandate(req: IncomingMessage, caller: Caller, mandate: VerifiedMandate | null): void {
  const auth: AuthInfo = { token: '', clientId: caller.keyId, scopes: [], extra: { mandate } };
  (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
}

/** The mandate verified for the HTTP request that carried this MCP message; null: none was sent. */
function mandateOf(extra: { authInfo?: AuthInfo }): VerifiedMandate | null {
  return (extra.authInfo?.extra?.['mandate'] as VerifiedMandate | null | undefined) ?? null;
}

/**
 * How a decided call shows in the tool result: `_meta` names the decision (`igw/decision_id`,
 * mandate path) or the evaluation (`igw/intent_event_id`, legacy path); a refusal's
 * `structuredContent` carries `{decision}` or `{evaluation}`.
 */
function shownOf(enforced: EnforcedMcpCall): { meta: Record<string, string>; verdict: Record<string, unknown> } {
  if (enforced.decision !== undefined) return { meta: { 'igw/decision_id': enforced.decision.decision_id }, verdict: { decision: enforced.decision } };
  return { meta: { 'igw/intent_event_id': enforced.evaluation.intent_event_id }, verdict: { evaluation: enforced.evaluation } };
}

const toolError = (text: string, structured: Record<string, unknown>, meta: Record<string, unknown>): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text }],
  structuredContent: structured,
  _meta: meta,
});

/**
 * One agent session of `{base}/mcp/{name}`: an SDK `Server` toward the agent (its own Streamable
 * HTTP transport and session id) and an SDK `Client` toward the upstream, connected on first need
 * and again after a failure. `tools/list` and `tools/call` are decided; the other methods the
 * upstream offers pass through unchanged. The session belongs to the key that opened it.
 */
export class McpProxySession {
  readonly transport: StreamableHTTPServerTransport;
  lastUsed = Date.now();
  private readonly server: Server;
  private client: Promise<Client> | null = null;

  private constructor(
    readonly owner: Caller,
    /** Opened with a mandate: every request of the session must carry one (no fall-back to the legacy path). */
    readonly mandatePath: boolean,
    private readonly upstream: OpenedMcpUpstream,
    private readonly deps: McpProxySessionDeps,
    capabilities: ServerCapabilities,
    instructions: string | undefined,
    onSession: (id: string, session: McpProxySession) => void,
    onClosed: (id: string) => void,
  ) {
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => onSession(id, this),
      onsessionclosed: (id) => onClosed(id),
    });
    this.transport.onclose = () => {
      if (this.transport.sessionId) onClosed(this.transport.sessionId);
      void this.closeUpstream();
    };
    this.server = new Server(GATEWAY_INFO, { capabilities, ...(instructions ? { instructions } : {}) });
    this.register(capabilities);
  }

  /**
   * A session for `owner` on `upstream`: the upstream is asked for its capabilities first (the
   * agent sees them as the gateway's); an upstream that cannot be reached yet still gets a
   * session offering tools, whose calls then answer `upstream_unavailable` until it is back.
   */
  static async open(
    owner: Caller,
    mandatePath: boolean,
    upstream: OpenedMcpUpstream,
    deps: McpProxySessionDeps,
    onSession: (id: string, session: McpProxySession) => void,
    onClosed: (id: string) => void,
  ): Promise<McpProxySession> {
    const client = await McpProxySession.connect(upstream, deps.fetch).catch(() => null);
    const offered = client?.getServerCapabilities() ?? {};
    const capabilities: ServerCapabilities = { tools: { listChanged: offered.tools?.listChanged === true } };
    if (offered.resources) capabilities.resources = offered.resources;
    if (offered.prompts) capabilities.prompts = offered.prompts;
    if (offered.completions) capabilities.completions = offered.completions;
    if (offered.logging) capabilities.logging = offered.logging;
    const session = new McpProxySession(owner, mandatePath, upstream, deps, capabilities, client?.getInstructions(), onSession, onClosed);
    if (client) session.adopt(client);
    await session.server.connect(session.transport);
    return session;
  }

  get serverName(): string {
    return this.upstream.server.name;
  }

  async close(): Promise<void> {
    await this.transport.close().catch(() => undefined);
    await this.closeUpstream();
  }

  private static async connect(upstream: OpenedMcpUpstream, fetchFn: typeof fetch | undefined): Promise<Client> {
    const client = new Client(GATEWAY_INFO, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(upstream.server.url), {
      requestInit: { headers: upstream.headers },
      ...(fetchFn ? { fetch: fetchFn } : {}),
    });
    await client.connect(transport, { timeout: UPSTREAM_DEADLINE_MS });
    return client;
  }

  private adopt(client: Client): void {
    // The upstream's notifications (list changes, progress, logs) reach the agent as they are.
    client.fallbackNotificationHandler = async (notification) => {
      await this.server.notification(notification as Parameters<Server['notification']>[0]).catch(() => undefined);
    };
    client.onclose = () => {
      this.client = null;
    };
    this.client = Promise.resolve(client);
  }

  /** The connected upstream client; a failed connection is forgotten so the next call retries. */
  private upstreamClient(): Promise<Client> {
    if (this.client === null) {
      const pending = McpProxySession.connect(this.upstream, this.deps.fetch);
      this.client = pending;
      pending.then(
        (client) => this.adopt(client),
        () => {
          if (this.client === pending) this.client = null;
        },
      );
    }
    return this.client;
  }

  private async closeUpstream(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await (await client.catch(() => null))?.close().catch(() => undefined);
  }

  private register(capabilities: ServerCapabilities): void {
    const name = this.upstream.server.name;
    this.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      const upstream = await this.upstreamOrThrow();
      const listed = await upstream.listTools(request.params, { signal: extra.signal, timeout: UPSTREAM_DEADLINE_MS }).catch(rethrowUpstream);
      return { ...listed, tools: this.deps.listTools.execute(mandateOf(extra), name, listed.tools) };
    });
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.callTool(request.params, mandateOf(extra), extra.signal));
    // Everything else the upstream offers goes through unchanged.
    const forward = async (request: { method: string; params?: unknown }, extra: { signal: AbortSignal }) => {
      const upstream = await this.upstreamOrThrow();
      return upstream
        .request({ method: request.method, params: request.params as Record<string, unknown> }, ResultSchema, {
          signal: extra.signal,
          timeout: UPSTREAM_DEADLINE_MS,
        })
        .catch(rethrowUpstream);
    };
    if (capabilities.resources) {
      this.server.setRequestHandler(ListResourcesRequestSchema, forward);
      this.server.setRequestHandler(ListResourceTemplatesRequestSchema, forward);
      this.server.setRequestHandler(ReadResourceRequestSchema, forward);
      if (capabilities.resources.subscribe) {
        this.server.setRequestHandler(SubscribeRequestSchema, forward);
        this.server.setRequestHandler(UnsubscribeRequestSchema, forward);
      }
    }
    if (capabilities.prompts) {
      this.server.setRequestHandler(ListPromptsRequestSchema, forward);
      this.server.setRequestHandler(GetPromptRequestSchema, forward);
    }
    if (capabilities.completions) this.server.setRequestHandler(CompleteRequestSchema, forward);
    if (capabilities.logging) this.server.setRequestHandler(SetLevelRequestSchema, forward);
  }

  private async upstreamOrThrow(): Promise<Client> {
    return this.upstreamClient().catch((err) => rethrowUpstream(err));
  }

  private async callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    mandate: VerifiedMandate | null,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const server = this.upstream.server.name;
    if (!TOOL_NAME.test(params.name)) throw new McpError(-32602, 'params.name must be a tool name (1-128 of A-Z a-z 0-9 _ . -)');
    const args = isObject(params.arguments) ? params.arguments : {};
    let enforced;
    try {
      enforced = await this.deps.enforce.execute(this.owner, mandate, this.upstream.server, params.name, args, isObject(params._meta) ? params._meta : {});
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Not decided (bad mandate, unknown card, a dependency down): never forwarded.
      return toolError(`${err.code}: ${err.message}`, { error: { code: err.code, message: err.message } }, {});
    }
    const { plan } = enforced;
    const { meta, verdict } = shownOf(enforced);
    if (!plan.forward) return toolError(plan.text, verdict, meta);

    let result: CallToolResult;
    try {
      const upstream = await this.upstreamClient();
      result = (await upstream.callTool({ name: plan.tool, arguments: plan.arguments }, undefined, {
        signal,
        timeout: UPSTREAM_DEADLINE_MS,
      })) as CallToolResult;
    } catch (err) {
      const message = `upstream ${server} failed: ${upstreamFailureText(err)}`;
      return toolError(`upstream_unavailable: ${message}`, { error: { code: 'upstream_unavailable', message }, ...verdict }, meta);
    }
    const masked = maskToolResult(result, plan.maskResult);
    return { ...masked, _meta: { ...(isObject(result._meta) ? result._meta : {}), ...meta } };
  }
}

function rethrowUpstream(err: unknown): never {
  if (err instanceof McpError) throw err;
  const code = (err as { code?: unknown })?.code;
  // An error the upstream answered (JSON-RPC) goes to the agent as it is; anything else is the upstream being away.
  if (typeof code === 'number' && code > -32800 && code <= -32000) throw err;
  throw new McpError(-32000, `upstream_unavailable: ${upstreamFailureText(err)}`, { code: 'upstream_unavailable' });
}
