import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EnforceMcpToolCallUseCase } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import type { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpSession } from '../../domain/mcp-session';
import { mcpSessionServer, type UpstreamLink } from './mcp-session-server';
import { UPSTREAM_FAILURE_MAX_CHARS, upstreamFailureText } from './upstream-failure';

/** What a misbehaving upstream answers: a body the agent must never see. */
const LEAKY_BODY = '<html>Traceback (most recent call last): db password=hunter2 at 10.0.0.7:5432</html>\n'.repeat(50);

describe('upstreamFailureText', () => {
  it.each([
    ['an HTTP 502 with a body', new StreamableHTTPError(502, `Error POSTing to endpoint: ${LEAKY_BODY}`), 'upstream answered HTTP 502'],
    ['an HTTP 500 on the SSE stream', new StreamableHTTPError(500, 'Failed to open SSE stream: Internal secrets'), 'upstream answered HTTP 500'],
    ['an unexpected content type', new StreamableHTTPError(-1, 'Unexpected content type: text/html; leak=1'), 'upstream answered with an unexpected response'],
    ['no connection', new TypeError('fetch failed'), 'fetch failed'],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8443'), { code: 'ECONNREFUSED' }), 'upstream connection refused'],
    ['an unknown host', Object.assign(new Error('getaddrinfo ENOTFOUND internal.corp'), { code: 'ENOTFOUND' }), 'upstream host name not resolved'],
    [
      'a TLS name mismatch',
      Object.assign(new Error("Hostname/IP does not match certificate's altnames: DNS:a.corp"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }),
      'upstream TLS handshake failed',
    ],
    ['a wrapped timeout', Object.assign(new Error('outer'), { cause: { code: 'UND_ERR_HEADERS_TIMEOUT' } }), 'upstream did not answer within the deadline'],
    ['a timeout', new McpError(-32001, 'Request timed out'), 'MCP error -32001: Request timed out'],
    ['a multi-line text', 'a\n  multi-line\tthing', 'a multi-line thing'],
  ])('%s: the agent is told only the status or a capped one-line message', (_label, err, text) => {
    expect(upstreamFailureText(err)).toBe(text);
  });

  it('caps any other failure text', () => {
    const text = upstreamFailureText(new Error('x'.repeat(5000)));
    expect(text).toHaveLength(UPSTREAM_FAILURE_MAX_CHARS);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('an MCP session server: an upstream answering an HTTP error', () => {
  it('tells the agent upstream_unavailable with the status line only, never the upstream body', async () => {
    const enforce = {
      execute: async () => ({
        plan: { forward: true, tool: 'read', arguments: {}, maskResult: [] },
        decision: { kind: 'allow', decision_id: 'dec_1' },
      }),
    } as unknown as EnforceMcpToolCallUseCase;
    const server = { id: 'mcp_1', orgId: 'org_a', name: 'files', url: 'https://files.example.com/mcp', headerNames: [], shadow: false, createdAt: new Date(0) };
    const link: UpstreamLink = {
      upstream: { server, headers: {} },
      // What the SDK client throws when the upstream answers 502 with a body.
      withClient: async (use) => use({ callTool: async () => Promise.reject(new StreamableHTTPError(502, LEAKY_BODY)) } as unknown as McpClient),
    };
    const session: McpSession = { id: 'x', orgId: 'org_a', keyId: 'key_1', server: 'files', mandatePath: true, capabilities: { tools: {} }, upstream: {} };
    const mcp = mcpSessionServer(session, link, { enforce, listTools: {} as ListMcpToolsUseCase });
    const [agentSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const agent = new McpClient({ name: 'agent', version: '1' });
    await agent.connect(agentSide);
    try {
      const result = (await agent.callTool({ name: 'read', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'upstream_unavailable: upstream files failed: upstream answered HTTP 502' }]);
      expect(result.structuredContent).toEqual({
        error: { code: 'upstream_unavailable', message: 'upstream files failed: upstream answered HTTP 502' },
        decision: { kind: 'allow', decision_id: 'dec_1' },
      });
      expect(result._meta).toEqual({ 'igw/decision_id': 'dec_1' });
      expect(JSON.stringify(result)).not.toMatch(/hunter2|Traceback|10\.0\.0\.7/);
    } finally {
      await agent.close();
    }
  });
});
