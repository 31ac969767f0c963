import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { client, type Client } from '../e2e/http-client';
import { mintKey, otherOrgClient } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';
import { freePort } from '../infra/free-port';
import { startMcpUpstream, type McpUpstream } from '../fakes/mcp-upstream.server';

/**
 * The MCP enforcement proxy (DESIGN 6.13) driven by the official SDK client, in front of a real
 * SDK upstream that counts the calls reaching it: what the agent sees for each decision kind,
 * and that what is refused never reaches the upstream.
 */
export function describeMcpGateway(mode: string, start: () => Promise<TestSystem>) {
  describe(`MCP enforcement proxy (${mode})`, () => {
    let sys: TestSystem;
    let upstream: McpUpstream;
    let writer: Client;
    let approver: Client;
    let writerKey: string;
    let otherOrg: Client;
    const open: McpClient[] = [];

    const cardId = 'files-agent';
    const rule = (id: string, tool: string, decision: Record<string, unknown>) => ({ id, when: `action.operation == "files.${tool}"`, decision });
    const dispense = async (audience: string, operations: string[]) => {
      const res = await writer.post('/v1/mandate/dispense', {
        actor: 'agent:files-bot',
        intent_id: cardId,
        prompt_id: 'prm_files',
        requested_scope: { operations, resources: [`mcp://${audience}/**`] },
        audience,
        ttl_seconds: 600,
      });
      expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
      return res.body as { credential: string; cred_id: string };
    };
    const connect = async (server: string, headers: Record<string, string>): Promise<McpClient> => {
      const agent = new McpClient({ name: 'test-agent', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${sys.url}/mcp/${server}`), { requestInit: { headers } }));
      open.push(agent);
      return agent;
    };
    const call = (agent: McpClient, name: string, args: Record<string, unknown> = {}) =>
      agent.callTool({ name, arguments: args, _meta: { actor: 'agent:files-bot', prompt_id: 'prm_files' } }) as Promise<CallToolResult>;
    let mandate: { credential: string; cred_id: string };
    let agent: McpClient;

    beforeAll(async () => {
      upstream = await startMcpUpstream();
      sys = await start();
      const admin = client(sys.url, sys.adminKey);
      writerKey = await mintKey(admin, 'mcp-writer', 'policy_write');
      writer = client(sys.url, writerKey);
      approver = client(sys.url, await mintKey(admin, 'mcp-approver', 'policy_write'));
      otherOrg = await otherOrgClient(sys, 'mcp-other');
      const card = {
        id: cardId,
        name: 'Files agent',
        allowed_scope: { operations: ['files.*', 'down.*'], resources: ['mcp://files/**', 'mcp://down/**'], forbidden_operations: ['files.purge'] },
        audiences: ['files', 'down'],
        max_ttl_seconds: 3600,
        rules: [
          rule('approve-export', 'export', { kind: 'approval' }),
          rule('redact-read', 'read', { kind: 'allow_with_redact', redact_fields: ['arguments.token', 'result.email'] }),
          rule('archive-not-delete', 'delete', { kind: 'substitute', replacement_action: { operation: 'files.archive' } }),
        ],
      };
      expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
      expect((await writer.post('/v1/mcp-servers', { name: 'files', url: upstream.url, headers: { 'x-upstream-secret': 's3cret' } })).status).toBe(201);
      expect((await writer.post('/v1/mcp-servers', { name: 'down', url: `http://127.0.0.1:${await freePort()}/mcp` })).status).toBe(201);
      mandate = await dispense('files', ['files.read', 'files.delete', 'files.export', 'files.archive']);
      agent = await connect('files', { authorization: `Bearer ${writerKey}`, 'x-service-mandate': mandate.credential });
    });

    afterAll(async () => {
      await Promise.all(open.map((a) => a.close().catch(() => undefined)));
      await sys?.stop();
      await upstream?.close();
    });

    it('lists only the tools the mandate could allow (in scope, not forbidden)', async () => {
      const { tools } = await agent.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['archive', 'delete', 'export', 'read']);
    });

    it('forwards an in-scope call with its headers; the result carries the recorded decision id', async () => {
      const before = upstream.callsOf('archive').length;
      const result = await call(agent, 'archive', { path: '/docs/a.md' });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'archive done: /docs/a.md' }]);
      const id = result._meta?.['igw/decision_id'] as string;
      expect(id).toMatch(/^dec_/);
      expect(upstream.callsOf('archive')).toHaveLength(before + 1);
      expect(upstream.callsOf('archive').at(-1)?.headers['x-upstream-secret']).toBe('s3cret');
      const rec = await writer.get(`/v1/mcp-proxy/decisions/${id}`);
      expect(rec.status).toBe(200);
      expect(rec.body).toMatchObject({
        decision_id: id,
        decision: { kind: 'allow' },
        operation: 'files.archive',
        surface: 'mcp',
        audience: 'files',
        target_resource: 'mcp://files/archive',
      });
    });

    it('keeps the call a tools/call decided: include=call returns its arguments, to the org only', async () => {
      const result = await call(agent, 'archive', { path: '/docs/kept.md', note: 'Ada Lovelace' });
      const id = result._meta?.['igw/decision_id'] as string;
      expect(id).toMatch(/^dec_/);
      // Durable before the answer: the call is there as soon as the decision is.
      const listed = await writer.get(`/v1/mcp-proxy/decisions?cred_id=${mandate.cred_id}&include=call&limit=200`);
      expect(listed.status).toBe(200);
      const kept = listed.body.data.find((d: { decision_id: string }) => d.decision_id === id);
      expect(kept?.call?.action).toMatchObject({ operation: 'files.archive', arguments: { path: '/docs/kept.md', note: 'Ada Lovelace' } });
      const theirs = await otherOrg.get('/v1/mcp-proxy/decisions?include=call&limit=200');
      expect(JSON.stringify(theirs.body)).not.toContain('Ada Lovelace');
    });

    it('passes methods other than tools/* through unchanged (resources, prompts)', async () => {
      expect(agent.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      const { resources } = await agent.listResources();
      expect(resources).toEqual([expect.objectContaining({ uri: 'file:///readme.md', name: 'readme' })]);
      expect((await agent.readResource({ uri: 'file:///readme.md' })).contents).toEqual([
        { uri: 'file:///readme.md', mimeType: 'text/markdown', text: '# files' },
      ]);
      const prompt = await agent.getPrompt({ name: 'summarise', arguments: { path: '/docs/a.md' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarise /docs/a.md' } }]);
    });

    it('never forwards a forbidden call: a tool error with the deny decision', async () => {
      const result = await call(agent, 'purge', { path: '/' });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ decision: { kind: 'deny', reason: 'forbidden_operation' } });
      expect(upstream.callsOf('purge')).toHaveLength(0);
    });

    it('approval: refused with the request id, then the identical call goes through once', async () => {
      const first = await call(agent, 'export', { path: '/reports/q3.csv' });
      expect(first.isError).toBe(true);
      const decision = (first.structuredContent as { decision: { kind: string; approval_request_id: string } }).decision;
      expect(decision.kind).toBe('approval');
      expect(upstream.callsOf('export')).toHaveLength(0);
      expect((await approver.post(`/v1/approvals/${decision.approval_request_id}/approve`, {})).status).toBe(200);
      const second = await call(agent, 'export', { path: '/reports/q3.csv' });
      expect(second.isError).toBeFalsy();
      expect(upstream.callsOf('export')).toHaveLength(1);
      const third = await call(agent, 'export', { path: '/reports/q3.csv' });
      expect(third.isError).toBe(true);
      expect(upstream.callsOf('export')).toHaveLength(1);
    });

    it('redact: the argument never reaches the upstream and the result field is masked', async () => {
      const result = await call(agent, 'read', { path: '/docs/b.md', token: 'tok_secret' });
      expect(result.isError).toBeFalsy();
      expect(upstream.callsOf('read').at(-1)?.arguments).toEqual({ path: '/docs/b.md' });
      expect(result.structuredContent).toEqual({ path: '/docs/b.md', content: 'contents of /docs/b.md', email: '[redacted]' });
      // Servers repeat structured content as text: masked there too.
      expect(JSON.stringify(result.content)).not.toContain('owner@example.com');
    });

    it('substitute: the replacement tool is called instead', async () => {
      const archived = upstream.callsOf('archive').length;
      const result = await call(agent, 'delete', { path: '/docs/c.md' });
      expect(result.isError).toBeFalsy();
      expect(upstream.callsOf('delete')).toHaveLength(0);
      expect(upstream.callsOf('archive')).toHaveLength(archived + 1);
      expect(upstream.callsOf('archive').at(-1)?.arguments).toEqual({ path: '/docs/c.md' });
    });

    it('a call without a mandate is evaluated on the legacy path: allowed forwards, ambient is refused', async () => {
      const created = await writer.post('/v1/intentions', {
        label: 'files.read_document',
        intent_class: 'lookup',
        display_name: 'Read a document from the files server',
        description: 'Read one document by path to answer a question.',
      });
      expect(created.status).toBe(201);
      expect((await writer.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      const legacy = await connect('files', { authorization: `Bearer ${writerKey}` });
      // Without a mandate nothing is filtered: each call is evaluated on its own.
      expect((await legacy.listTools()).tools).toHaveLength(6);
      const reads = upstream.callsOf('read').length;
      const allowed = await call(legacy, 'read', { path: '/docs/d.md' });
      expect(allowed.isError).toBeFalsy();
      expect(upstream.callsOf('read')).toHaveLength(reads + 1);
      const eventId = allowed._meta?.['igw/intent_event_id'] as string;
      expect(eventId).toEqual(expect.any(String));
      const history = await writer.get('/v1/intent/history?limit=200');
      expect(history.body.data.find((e: { id: string }) => e.id === eventId)).toMatchObject({
        outcome: 'allowed',
        tool_name: 'files.read',
        user_id: 'agent:files-bot',
      });

      const refused = await call(legacy, 'admin_reset', { path: '/' });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ evaluation: { outcome: 'denied', intent_label: 'ambient' } });
      expect((refused.structuredContent as { evaluation: Record<string, unknown> }).evaluation['grant']).toBeUndefined();
      expect(upstream.callsOf('admin_reset')).toHaveLength(0);
    });

    it('legacy path, uncertain match: the agent gets the approval id, nothing is forwarded; once approved the identical call goes through once', async () => {
      const created = await writer.post('/v1/intentions', {
        label: 'files.bulk_export',
        intent_class: 'export',
        display_name: 'Export documents',
        description: 'Export many documents from the files server as an archive for a customer.',
      });
      expect((await writer.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      const legacy = await connect('files', { authorization: `Bearer ${writerKey}` });
      const exports = upstream.callsOf('export').length;
      const held = await call(legacy, 'export', { path: '/docs/q3' });
      expect(held.isError).toBe(true);
      expect(held.structuredContent).toMatchObject({
        evaluation: { outcome: 'pending_approval', reason: 'uncertain_match', intent_label: 'files.bulk_export' },
      });
      const approvalId = (held.structuredContent as { evaluation: { approval_request_id: string } }).evaluation.approval_request_id;
      expect(approvalId).toMatch(/^apr_/);
      expect(upstream.callsOf('export')).toHaveLength(exports);
      expect((await approver.get(`/v1/approvals/${approvalId}`)).body).toMatchObject({
        reason_code: 'uncertain_match',
        tool_call: { name: 'files.export', arguments: { path: '/docs/q3' } },
      });
      expect((await approver.post(`/v1/approvals/${approvalId}/approve`)).body.status).toBe('approved');
      const passed = await call(legacy, 'export', { path: '/docs/q3' });
      expect(passed.isError).toBeFalsy();
      expect(upstream.callsOf('export')).toHaveLength(exports + 1);
      expect((await call(legacy, 'export', { path: '/docs/q3' })).isError).toBe(true);
      expect(upstream.callsOf('export')).toHaveLength(exports + 1);
    });

    it('a shadow server forwards what the legacy path would refuse, recorded as shadow_denied', async () => {
      expect((await writer.post('/v1/mcp-servers', { name: 'files-shadow', url: upstream.url, shadow: true })).status).toBe(201);
      const legacy = await connect('files-shadow', { authorization: `Bearer ${writerKey}` });
      const result = await call(legacy, 'admin_reset', { path: '/tmp' });
      expect(result.isError).toBeFalsy();
      expect(upstream.callsOf('admin_reset')).toHaveLength(1);
      const eventId = result._meta?.['igw/intent_event_id'] as string;
      const history = await writer.get('/v1/intent/history?limit=200');
      expect(history.body.data.find((e: { id: string }) => e.id === eventId)).toMatchObject({
        outcome: 'shadow_denied',
        tool_name: 'files-shadow.admin_reset',
      });
    });

    it('an unreachable upstream: the call is decided and answers upstream_unavailable', async () => {
      const m = await dispense('down', ['down.*']);
      const down = await connect('down', { authorization: `Bearer ${writerKey}`, 'x-service-mandate': m.credential });
      const result = await call(down, 'anything', { path: '/x' });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'upstream_unavailable' }, decision: { kind: 'allow' } });
      expect(result._meta?.['igw/decision_id']).toMatch(/^dec_/);
    });

    it('a revoked mandate is refused over HTTP before any MCP traffic', async () => {
      const m = await dispense('files', ['files.read']);
      const revocable = await connect('files', { authorization: `Bearer ${writerKey}`, 'x-service-mandate': m.credential });
      expect((await call(revocable, 'read', { path: '/a' })).isError).toBeFalsy();
      expect((await writer.post('/v1/mandate/revoke', { cred_id: m.cred_id })).status).toBe(200);
      const before = upstream.calls.length;
      await expect(call(revocable, 'read', { path: '/a' })).rejects.toThrow(/401|mandate_invalid/);
      expect(upstream.calls.length).toBe(before);
    });

    it('a session opened with a mandate never falls back to the legacy path', async () => {
      const sessionId = (agent.transport as StreamableHTTPClientTransport).sessionId!;
      const headers = { accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      const purge = { jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'purge', arguments: { path: '/' } } };
      const res = await writer.post('/mcp/files', purge, headers);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'mandate_invalid' });
      expect(upstream.callsOf('purge')).toHaveLength(0);
    });

    it('hostile MCP bodies are 400 at the edge, never a 500 and never forwarded', async () => {
      const headers = { accept: 'application/json, text/event-stream', 'x-service-mandate': mandate.credential };
      const before = upstream.calls.length;
      // 10,000 levels, written as text (JSON.stringify itself would overflow).
      const deep = `${'{"d":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      const init = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
      const bodies: unknown[] = [
        `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"},"deep":${deep}}}`,
        init({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't\ud800', version: '1' } }),
        '{"jsonrpc":"2.0","id":1,"method":',
      ];
      for (const body of bodies) {
        const res = await writer.post('/mcp/files', body, headers);
        expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'invalid_request' });
      }
      // Inside a session: a huge or wrong-typed tools/call is an MCP error, not a 500, and nothing reaches the upstream.
      const sessionId = (agent.transport as StreamableHTTPClientTransport).sessionId!;
      const inSession = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      for (const params of [{ name: 7 }, { name: 'x'.repeat(5000) }, { name: 'read', arguments: [1, 2] }, { name: 'read', arguments: 'all' }]) {
        const res = await writer.post('/mcp/files', { jsonrpc: '2.0', id: 9, method: 'tools/call', params }, inSession);
        expect(res.status).toBeLessThan(500);
        expect(res.text).not.toMatch(/\bat \S+:\d+:\d+/); // no stack trace
      }
      expect(upstream.calls.length).toBe(before);
    });

    it('unknown servers, other orgs and missing keys get HTTP errors, not MCP', async () => {
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const headers = { accept: 'application/json, text/event-stream' };
      expect((await writer.post('/mcp/nope', init, headers)).status).toBe(404);
      expect((await otherOrg.post('/mcp/files', init, headers)).status).toBe(404);
      const anonymous = await fetch(`${sys.url}/mcp/files`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(init),
      });
      expect(anonymous.status).toBe(401);
      // Another org cannot ride this agent's session.
      const sessionId = (agent.transport as StreamableHTTPClientTransport).sessionId!;
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
      expect((await otherOrg.post('/mcp/files', list, { ...headers, 'mcp-session-id': sessionId })).status).toBe(404);
    });
    it.each([
      ['a graceful stop (SIGTERM)', 'SIGTERM'],
      ['a crash (SIGKILL)', 'SIGKILL'],
    ] as const)('after %s the registered servers and their sealed headers are back; sessions survive where they are shared', async (_how, signal) => {
      const proxyApp = mode === 'embedded' ? 'embedded' : 'decision-proxy';
      const oldSession = (agent.transport as StreamableHTTPClientTransport).sessionId!;
      await sys.restartService(proxyApp, signal);
      const readyz = `${sys.processes.find((p) => p.name === proxyApp)!.url}/readyz`;
      for (const deadline = Date.now() + 30_000; (await fetch(readyz)).status !== 200 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 100));

      const listed = await writer.get('/v1/mcp-servers');
      expect(listed.body.data.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['files', 'down']));
      // Distributed: sessions live in Redis, so the old one goes on (decision 0020). Embedded: the
      // one process is the session store, so the agent opens a new one.
      const headers = {
        accept: 'application/json, text/event-stream',
        'x-service-mandate': mandate.credential,
        'mcp-session-id': oldSession,
        'mcp-protocol-version': '2025-06-18',
      };
      const again = await writer.post('/mcp/files', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, headers);
      expect(again.status).toBe(mode === 'distributed' ? 200 : 404);
      agent = await connect('files', { authorization: `Bearer ${writerKey}`, 'x-service-mandate': mandate.credential });
      const result = await call(agent, 'archive', { path: `/after-${signal}` });
      expect(result.isError).toBeFalsy();
      // The header was opened with the key-encryption key the restarted process found again.
      expect(upstream.callsOf('archive').at(-1)).toMatchObject({ arguments: { path: `/after-${signal}` }, headers: { 'x-upstream-secret': 's3cret' } });
    });
  });
}
