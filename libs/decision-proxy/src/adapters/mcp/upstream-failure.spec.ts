import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EnforceMcpToolCallUseCase } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import type { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { McpProxySession } from './mcp-proxy-session';
import { UPSTREAM_FAILURE_MAX_CHARS, upstreamFailureText } from './upstream-failure';

/** What a misbehaving upstream answers: a body the agent must never see. */
const LEAKY_BODY = '<html>Traceback (most recent call last): db password=hunter2 at 10.0.0.7:5432</html>\n'.repeat(50);

describe('upstreamFailureText', () => {
  it.each([
    ['an HTTP 502 with a body', new StreamableHTTPError(502, `Error POSTing to endpoint: ${LEAKY_BODY}`), 'upstream answered HTTP 502'],
    ['an HTTP 500 on the SSE stream', new StreamableHTTPError(500, 'Failed to open SSE stream: Internal secrets'), 'upstream answered HTTP 500'],
    ['an unexpected content type', new StreamableHTTPError(-1, 'Unexpected content type: text/html; leak=1'), 'upstream answered with an unexpected response'],
    ['no connection', new TypeError('fetch failed'), 'fetch failed'],
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

describe('McpProxySession: an upstream answering an HTTP error', () => {
  it('tells the agent upstream_unavailable with the status line only, never the upstream body', async () => {
    const fetchFn = (async () => new Response(LEAKY_BODY, { status: 502, headers: { 'content-type': 'text/html' } })) as typeof fetch;
    const enforce = {
      execute: async () => ({
        plan: { forward: true, tool: 'read', arguments: {}, maskResult: [] },
        decision: { kind: 'allow', decision_id: 'dec_1' },
      }),
    } as unknown as EnforceMcpToolCallUseCase;
    const server = { id: 'mcp_1', orgId: 'org_a', name: 'files', url: 'https://files.example.com/mcp', headerNames: [], shadow: false, createdAt: new Date(0) };
    const session = await McpProxySession.open(
      { orgId: 'org_a', keyId: 'key_1', scope: 'policy_write' } as never,
      true,
      { server, headers: {} },
      { enforce, listTools: {} as ListMcpToolsUseCase, fetch: fetchFn },
      () => undefined,
      () => undefined,
    );
    try {
      const callTool = (session as unknown as { callTool: (p: object, m: null, s: AbortSignal) => Promise<CallToolResult> }).callTool.bind(session);
      const result = await callTool({ name: 'read', arguments: {} }, null, new AbortController().signal);
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'upstream_unavailable: upstream files failed: upstream answered HTTP 502' }]);
      expect(result.structuredContent).toEqual({
        error: { code: 'upstream_unavailable', message: 'upstream files failed: upstream answered HTTP 502' },
        decision: { kind: 'allow', decision_id: 'dec_1' },
      });
      expect(result._meta).toEqual({ 'igw/decision_id': 'dec_1' });
      expect(JSON.stringify(result)).not.toMatch(/hunter2|Traceback|10\.0\.0\.7/);
    } finally {
      await session.close();
    }
  });
});
