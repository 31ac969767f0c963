import { randomBytes } from 'node:crypto';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { client, type Client } from '../e2e/http-client';
import type { TestSystem } from '../e2e/system';
import type { TcpBalancer } from '../infra/tcp-balancer';
import { startMcpUpstream, type McpUpstream } from '../fakes/mcp-upstream.server';

type ReplicatedSystem = TestSystem & { internalToken: string; balancer?: TcpBalancer };

const AGENTS = 8;
const CALLS = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * MCP sessions on any replica (DESIGN 6.13, decision 0020): two decision-proxy replicas behind a
 * round-robin TCP balancer, official SDK clients whose requests land on either; sessions go on
 * across a restart of either replica; the path chosen at open holds on every replica.
 */
export function describeMcpReplicas(start: () => Promise<ReplicatedSystem>) {
  describe('MCP sessions on any replica (distributed, 2 decision-proxy replicas)', () => {
    let sys: ReplicatedSystem;
    let upstream: McpUpstream;
    let writer: Client;
    let writerKey: string;
    let org: { id: string; keyId: string };
    const agents: McpClient[] = [];

    const dispense = async (who: string) => {
      const res = await writer.post('/v1/mandate/dispense', {
        actor: `agent:${who}`,
        intent_id: 'replica-agent',
        prompt_id: 'prm_replicas',
        requested_scope: { operations: ['files.read', 'files.archive'], resources: ['mcp://files/**'] },
        audience: 'files',
        ttl_seconds: 900,
      });
      expect(res.status).toBe(200);
      return res.body as { credential: string; cred_id: string };
    };
    const connect = async (mandate: string): Promise<McpClient> => {
      const agent = new McpClient({ name: 'replica-agent', version: '1.0.0' });
      await agent.connect(
        new StreamableHTTPClientTransport(new URL(`${sys.url}/mcp/files`), {
          requestInit: { headers: { authorization: `Bearer ${writerKey}`, 'x-service-mandate': mandate } },
        }),
      );
      agents.push(agent);
      return agent;
    };
    const call = (agent: McpClient, who: string, path: string) =>
      agent.callTool({ name: 'read', arguments: { path }, _meta: { actor: `agent:${who}`, prompt_id: 'prm_replicas' } }) as Promise<CallToolResult>;
    /** Every decision recorded under a mandate. */
    const decisions = async (credId: string) => {
      const ids: string[] = [];
      for (let cursor: string | null = null, pages = 0; pages < 50; pages++) {
        const page: { body: { data: { decision_id: string }[]; next_cursor: string | null } } = await writer.get(
          `/v1/mcp-proxy/decisions?cred_id=${credId}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        ids.push(...page.body.data.map((d) => d.decision_id));
        cursor = page.body.next_cursor;
        if (!cursor) break;
      }
      return ids;
    };

    beforeAll(async () => {
      upstream = await startMcpUpstream();
      sys = await start();
      const created = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: `mcp-replicas-${randomBytes(3).toString('hex')}` });
      expect(created.status).toBe(201);
      writerKey = created.body.api_key.key;
      org = { id: created.body.org.id, keyId: created.body.api_key.id };
      writer = client(sys.url, writerKey);
      const card = {
        id: 'replica-agent',
        name: 'Replica agent',
        allowed_scope: { operations: ['files.*'], resources: ['mcp://files/**'], forbidden_operations: [] },
        audiences: ['files'],
        max_ttl_seconds: 3600,
        rules: [],
      };
      expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
      expect((await writer.post('/v1/mcp-servers', { name: 'files', url: upstream.url })).status).toBe(201);
    }, 240_000);

    afterAll(async () => {
      await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
      await sys?.stop();
      await upstream?.close();
    });

    it(`${AGENTS} SDK sessions of ${CALLS} tools/call each over both replicas: every call answered, decided and forwarded exactly once`, async () => {
      const runs = await Promise.all(
        Array.from({ length: AGENTS }, async (_, a) => {
          const mandate = await dispense(`r${a}`);
          const agent = await connect(mandate.credential);
          const ids: string[] = [];
          for (let c = 0; c < CALLS; c++) {
            const result = await call(agent, `r${a}`, `/run1/a${a}/c${c}`);
            expect(result.isError).toBeFalsy();
            ids.push(result._meta?.['igw/decision_id'] as string);
          }
          return { mandate, ids };
        }),
      );
      // Both replicas took connections, and the sessions' requests spread over them.
      expect(sys.balancer!.connections().every((n) => n > 0)).toBe(true);
      const reached = upstream
        .callsOf('read')
        .map((c) => c.arguments['path'] as string)
        .filter((p) => p.startsWith('/run1/'));
      expect(reached).toHaveLength(AGENTS * CALLS);
      expect(new Set(reached).size).toBe(AGENTS * CALLS);
      for (const { mandate, ids } of runs) {
        const recorded = await decisions(mandate.cred_id);
        expect(recorded.sort()).toEqual([...ids].sort());
      }
    });

    it.each([['SIGTERM'], ['SIGKILL']] as const)(
      'sessions go on while a replica restarts (%s): no call forwarded without a recorded decision, none twice',
      async (signal) => {
        const tag = `/run-${signal}`;
        const sessions = await Promise.all(
          Array.from({ length: AGENTS }, async (_, a) => ({ who: `k${a}-${signal}`, mandate: await dispense(`k${a}-${signal}`) })).map(async (p) => {
            const { who, mandate } = await p;
            return { who, mandate, agent: await connect(mandate.credential), answered: [] as string[], failed: [] as string[], after: 0 };
          }),
        );
        let restarting = true;
        const traffic = Promise.all(
          sessions.map(async (s, a) => {
            for (let c = 0, after = 0; restarting || after < 5; c++, after += restarting ? 0 : 1) {
              const path = `${tag}/a${a}/c${c}`;
              try {
                const result = await call(s.agent, s.who, path);
                if (result.isError) s.failed.push(`${path}: ${JSON.stringify(result.content)}`);
                else {
                  s.answered.push(result._meta?.['igw/decision_id'] as string);
                  if (!restarting) s.after++;
                }
              } catch (err) {
                s.failed.push(`${path}: ${(err as Error).message}`);
              }
              if (c > 2000) break;
              await sleep(20);
            }
          }),
        );
        await sleep(500);
        await sys.restartService('decision-proxy', signal, 0);
        await sleep(500);
        restarting = false;
        await traffic;

        const failures = sessions.flatMap((s) => s.failed);
        // What fails is only what met the replica going away (a request on a connection it closed,
        // or in flight when it was killed): a retryable 503, never a wrong answer, and few. The
        // session itself is never lost.
        const allowed = signal === 'SIGTERM' ? /"code":"unavailable"/ : /"code":"unavailable"|Request timed out/;
        for (const f of failures) expect(f).toMatch(allowed);
        expect(failures.length).toBeLessThanOrEqual(2 * AGENTS);
        // Every session went on after the restart, on the same session id.
        expect(sessions.filter((s) => s.after === 0)).toEqual([]);
        const reached = upstream
          .callsOf('read')
          .map((c) => c.arguments['path'] as string)
          .filter((p) => p.startsWith(`${tag}/`));
        expect(new Set(reached).size).toBe(reached.length);
        for (const s of sessions) {
          const recorded = new Set(await decisions(s.mandate.cred_id));
          for (const id of s.answered) expect(recorded.has(id)).toBe(true);
          // Forwarded calls of this agent never outnumber its recorded decisions.
          const mine = reached.filter((p) => p.startsWith(`${tag}/a${sessions.indexOf(s)}/`));
          expect(mine.length).toBeLessThanOrEqual(recorded.size);
        }
      },
      240_000,
    );

    it('a mandate session continued on the other replica without its mandate is 401 for every method, DELETE included', async () => {
      const proxies = sys.processes.filter((p) => p.name === 'decision-proxy').map((p) => p.url);
      expect(proxies).toHaveLength(2);
      const internal = {
        'x-igw-internal-token': sys.internalToken,
        'x-igw-org-id': org.id,
        'x-igw-key-id': org.keyId,
        'x-igw-scope': 'admin',
      };
      const mandate = await dispense('direct');
      const other = await dispense('direct-other');
      const mcp = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'direct', version: '1' } },
      };
      const opened = await fetch(`${proxies[0]}/mcp/files`, {
        method: 'POST',
        headers: { ...internal, ...mcp, 'x-service-mandate': mandate.credential },
        body: JSON.stringify(init),
      });
      expect(opened.status).toBe(200);
      const session = opened.headers.get('mcp-session-id')!;
      await opened.body?.cancel();
      const on = (replica: number, method: string, extra: Record<string, string>, body?: unknown) =>
        fetch(`${proxies[replica]}/mcp/files`, {
          method,
          headers: { ...internal, ...mcp, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18', ...extra },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
      // With its mandate, the other replica serves it.
      const served = await on(1, 'POST', { 'x-service-mandate': mandate.credential }, list);
      expect(served.status).toBe(200);
      expect(await served.text()).toMatch(/"read"/);
      for (const [method, body] of [
        ['POST', list],
        ['GET', undefined],
        ['DELETE', undefined],
      ] as const) {
        const bare = await on(1, method, {}, body);
        expect({ method, status: bare.status, code: ((await bare.json()) as { code: string }).code }).toEqual({ method, status: 401, code: 'mandate_invalid' });
      }
      // Another org's mandate does not end it either.
      const stranger = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: `mcp-stranger-${randomBytes(3).toString('hex')}` });
      const strangerWriter = client(sys.url, stranger.body.api_key.key);
      await strangerWriter.post('/v1/intent-cards', {
        id: 'replica-agent',
        name: 'x',
        allowed_scope: { operations: ['files.*'], resources: ['mcp://files/**'] },
        audiences: ['files'],
        max_ttl_seconds: 3600,
        rules: [],
      });
      const foreign = await strangerWriter.post('/v1/mandate/dispense', {
        actor: 'agent:x',
        intent_id: 'replica-agent',
        prompt_id: 'p',
        requested_scope: { operations: ['files.read'] },
        audience: 'files',
        ttl_seconds: 300,
      });
      expect(foreign.status).toBe(200);
      const foreignDelete = await on(1, 'DELETE', { 'x-service-mandate': foreign.body.credential });
      expect(foreignDelete.status).toBeGreaterThanOrEqual(401);
      expect(foreignDelete.status).toBeLessThan(500);
      // Its own org's other mandate may end it (same key, same server); then it is gone on both replicas.
      const ended = await on(1, 'DELETE', { 'x-service-mandate': other.credential });
      expect(ended.status).toBe(200);
      for (const replica of [0, 1]) expect((await on(replica, 'POST', { 'x-service-mandate': mandate.credential }, list)).status).toBe(404);
    });

    it('bad input on /mcp/* is a 400 whichever replica answers, never a 500', async () => {
      const mandate = await dispense('hostile');
      const headers = { accept: 'application/json, text/event-stream', 'x-service-mandate': mandate.credential };
      const deep = `${'{"d":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      const bodies = [
        `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"},"deep":${deep}}}`,
        '{"jsonrpc":"2.0","id":1,"method":',
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      ];
      // Enough tries that both replicas answer each body (the balancer alternates connections).
      for (let i = 0; i < 6; i++) {
        for (const body of bodies) {
          const res = await writer.post('/mcp/files', body, { ...headers, 'mcp-session-id': i % 2 ? 'not-a-session' : '' });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        }
      }
    });
  });
}
