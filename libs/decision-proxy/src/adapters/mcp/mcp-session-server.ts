import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
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
import type { McpSession } from '../../domain/mcp-session';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OpenedMcpUpstream } from '../../application/ports/mcp-upstreams.port';
import type { VerifiedMandate } from '../../application/decision-gate/tool-call-decision-gate';
import type { EnforceMcpToolCallUseCase, EnforcedMcpCall } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import type { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { upstreamFailureText } from './upstream-failure';

/** How long one upstream request may take before the agent gets `upstream_unavailable` (DESIGN 6.13). */
export const UPSTREAM_DEADLINE_MS = 30_000;
/**
 * One JSON-schema validator for every session's SDK server: the SDK builds a new Ajv (about a
 * third of a millisecond) per instance otherwise. A server uses it only for elicitation schemas,
 * which the gateway never sends, so its cache cannot grow. (Upstream clients keep their own: they
 * compile the tools' output schemas, one client per session.)
 */
export const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
export const GATEWAY_INFO = { name: 'intent-gateway', version: '0.6.0' };
/** MCP tool names (2025-06-18: 1–128 of these characters). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the server's handlers learn of the HTTP request that carried a message (the SDK passes it
 * to every handler as `authInfo`): the mandate the HTTP layer verified, so one verification per request.
 */
export function requestAuth(caller: Caller, mandate: VerifiedMandate | null): AuthInfo {
  return { token: '', clientId: caller.keyId, scopes: [], extra: { mandate } };
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

/** The upstream side of a session, as the replica serving a request has it. */
export interface UpstreamLink {
  readonly upstream: OpenedMcpUpstream;
  /**
   * Runs `use` with the session's upstream client (connected, or resumed on this replica); when
   * the upstream no longer knows its session, it is opened again and `use` runs once more.
   */
  withClient<T>(use: (client: Client) => Promise<T>): Promise<T>;
}

/** What the request's server needs of the application. */
export interface McpRequestDeps {
  enforce: EnforceMcpToolCallUseCase;
  listTools: ListMcpToolsUseCase;
}

/**
 * The agent-facing SDK `Server` of a session on the replica serving it: built from what the
 * session store holds, so any replica can build it. `tools/list` and `tools/call` are decided;
 * the other methods the upstream offers pass through unchanged. Each request's mandate comes
 * with its message (`authInfo`), never from the server's state.
 */
export function mcpSessionServer(session: McpSession, link: UpstreamLink, deps: McpRequestDeps): Server {
  const capabilities = session.capabilities as ServerCapabilities;
  const server = new Server(GATEWAY_INFO, {
    capabilities,
    jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
    ...(session.instructions ? { instructions: session.instructions } : {}),
  });
  const owner = { orgId: session.orgId, keyId: session.keyId, scope: 'read_only' as const };
  const name = session.server;
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const listed = await link.withClient((c) => c.listTools(request.params, { signal: extra.signal, timeout: UPSTREAM_DEADLINE_MS })).catch(rethrowUpstream);
    return { ...listed, tools: deps.listTools.execute(mandateOf(extra), name, listed.tools) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(owner, link, deps, request.params, mandateOf(extra), extra.signal));
  // Everything else the upstream offers goes through unchanged.
  const forward = async (request: { method: string; params?: unknown }, extra: { signal: AbortSignal }) =>
    link
      .withClient((c) =>
        c.request({ method: request.method, params: request.params as Record<string, unknown> }, ResultSchema, {
          signal: extra.signal,
          timeout: UPSTREAM_DEADLINE_MS,
        }),
      )
      .catch(rethrowUpstream);
  if (capabilities.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, forward);
    server.setRequestHandler(ListResourceTemplatesRequestSchema, forward);
    server.setRequestHandler(ReadResourceRequestSchema, forward);
    if (capabilities.resources.subscribe) {
      server.setRequestHandler(SubscribeRequestSchema, forward);
      server.setRequestHandler(UnsubscribeRequestSchema, forward);
    }
  }
  if (capabilities.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, forward);
    server.setRequestHandler(GetPromptRequestSchema, forward);
  }
  if (capabilities.completions) server.setRequestHandler(CompleteRequestSchema, forward);
  if (capabilities.logging) server.setRequestHandler(SetLevelRequestSchema, forward);
  return server;
}

/** What the gateway offers the agent: tools always (decided), the rest as the upstream offers it. */
export function gatewayCapabilities(offered: ServerCapabilities | undefined): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: offered?.tools?.listChanged === true } };
  if (offered?.resources) capabilities.resources = offered.resources;
  if (offered?.prompts) capabilities.prompts = offered.prompts;
  if (offered?.completions) capabilities.completions = offered.completions;
  if (offered?.logging) capabilities.logging = offered.logging;
  return capabilities;
}

async function callTool(
  owner: Caller,
  link: UpstreamLink,
  deps: McpRequestDeps,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  mandate: VerifiedMandate | null,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const server = link.upstream.server.name;
  if (!TOOL_NAME.test(params.name)) throw new McpError(-32602, 'params.name must be a tool name (1-128 of A-Z a-z 0-9 _ . -)');
  const args = isObject(params.arguments) ? params.arguments : {};
  let enforced;
  try {
    enforced = await deps.enforce.execute(owner, mandate, link.upstream.server, params.name, args, isObject(params._meta) ? params._meta : {});
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
    // Decided and recorded above; forwarded once (a re-opened upstream session means it was not received).
    result = (await link.withClient((c) =>
      c.callTool({ name: plan.tool, arguments: plan.arguments }, undefined, { signal, timeout: UPSTREAM_DEADLINE_MS }),
    )) as CallToolResult;
  } catch (err) {
    const message = `upstream ${server} failed: ${upstreamFailureText(err)}`;
    return toolError(`upstream_unavailable: ${message}`, { error: { code: 'upstream_unavailable', message }, ...verdict }, meta);
  }
  const masked = maskToolResult(result, plan.maskResult);
  return { ...masked, _meta: { ...(isObject(result._meta) ? result._meta : {}), ...meta } };
}

export function rethrowUpstream(err: unknown): never {
  if (err instanceof McpError) throw err;
  const code = (err as { code?: unknown })?.code;
  // An error the upstream answered (JSON-RPC) goes to the agent as it is; anything else is the upstream being away.
  if (typeof code === 'number' && code > -32800 && code <= -32000) throw err;
  throw new McpError(-32000, `upstream_unavailable: ${upstreamFailureText(err)}`, { code: 'upstream_unavailable' });
}
