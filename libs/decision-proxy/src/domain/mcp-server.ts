import { outboundUrlProblem } from '@igw/kernel';

/**
 * An upstream MCP server an organisation registered (DESIGN 6.13): agents reach it through
 * `{base}/mcp/{name}` and every `tools/call` is decided before it is forwarded.
 */
export interface McpServer {
  id: string;
  orgId: string;
  /** `^[a-z0-9][a-z0-9_-]{0,62}$`, unique per org; the audience a mandate must name. */
  name: string;
  /** The upstream's Streamable HTTP endpoint. */
  url: string;
  /** Names of the headers forwarded upstream; their values are sealed at rest and never shown. */
  headerNames: string[];
  /** Legacy path (no mandate): forward what evaluation denies, recorded as `shadow_denied`. */
  shadow: boolean;
  createdAt: Date;
}

export const MCP_SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The decision engine's view of tool `tool` on server `server` (DESIGN 6.13). */
export interface McpToolAction {
  surface: 'mcp';
  operation: string;
  arguments: Record<string, unknown>;
  target_resource: string;
}

/** Members in the order of a REST call's action: a `negotiate`'s suggested_action reads the same on both paths. */
export function mcpToolAction(server: string, tool: string, args: Record<string, unknown> | undefined): McpToolAction {
  return { surface: 'mcp', operation: `${server}.${tool}`, arguments: args ?? {}, target_resource: `mcp://${server}/${tool}` };
}

/** The tool an operation names on `server` (`S.T` → `T`), or null when it names another server. */
export function mcpToolOf(server: string, operation: string): string | null {
  return operation.startsWith(`${server}.`) && operation.length > server.length + 1 ? operation.slice(server.length + 1) : null;
}

/** The shape rules of an upstream URL (before its host is resolved); null when it is acceptable. */
export function mcpServerUrlProblem(url: string): string | null {
  return outboundUrlProblem(url, { credentials: 'use headers', fragment: false });
}
