import type { McpServer } from '../../domain';

export const MCP_UPSTREAMS = Symbol('MCP_UPSTREAMS');

/** An upstream ready to connect to: its registration and its headers, opened. */
export interface OpenedMcpUpstream {
  server: McpServer;
  /** Header name → value, forwarded on every upstream request (e.g. its own Authorization). */
  headers: Record<string, string>;
}

/** What the MCP endpoint needs of the registry (`/v1/mcp-servers`). */
export interface McpUpstreams {
  /** The org's server named `name` with its headers opened, or null (unknown to this org). */
  resolve(orgId: string, name: string): Promise<OpenedMcpUpstream | null>;
}
