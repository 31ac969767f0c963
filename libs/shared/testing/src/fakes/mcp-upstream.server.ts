import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface UpstreamCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** The headers the gateway sent upstream (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
}

export interface McpUpstream {
  url: string;
  /** Every tool call that reached this server, in order. */
  calls: UpstreamCall[];
  callsOf(tool: string): UpstreamCall[];
  close(): Promise<void>;
}

/** The tools of the test upstream: each answers with what it was given. */
export const UPSTREAM_TOOLS = ['read', 'delete', 'export', 'archive', 'purge', 'admin_reset'] as const;

/**
 * A real MCP server (the official SDK, Streamable HTTP, stateless) standing in for a team's tool
 * server behind the gateway. It counts the calls that reach it, so a test can prove that a refused
 * call never did. `read` answers structured content with an `email`, for redaction.
 */
export async function startMcpUpstream(): Promise<McpUpstream> {
  const calls: UpstreamCall[] = [];
  const build = (headers: UpstreamCall['headers']) => {
    const server = new McpServer({ name: 'test-files', version: '1.0.0' });
    for (const tool of UPSTREAM_TOOLS) {
      server.registerTool(
        tool,
        {
          description: `${tool} a file`,
          inputSchema: { path: z.string().optional(), token: z.string().optional(), dry_run: z.boolean().optional() },
          ...(tool === 'read' ? { outputSchema: { path: z.string(), content: z.string(), email: z.string() } } : {}),
        },
        async (args) => {
          calls.push({ tool, arguments: { ...args }, headers });
          const path = typeof args.path === 'string' ? args.path : '';
          if (tool === 'read') {
            const structured = { path, content: `contents of ${path}`, email: 'owner@example.com' };
            return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
          }
          return { content: [{ type: 'text', text: `${tool} done: ${path}` }] };
        },
      );
    }
    // Not tools: the proxy passes these through unchanged.
    server.registerResource('readme', 'file:///readme.md', { description: 'the files server readme', mimeType: 'text/markdown' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# files' }],
    }));
    server.registerPrompt('summarise', { description: 'summarise a file', argsSchema: { path: z.string() } }, ({ path }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${path}` } }],
    }));
    return server;
  };
  const http: HttpServer = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = build({ ...req.headers });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    callsOf: (tool) => calls.filter((c) => c.tool === tool),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
