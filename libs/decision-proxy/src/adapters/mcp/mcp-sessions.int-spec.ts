import type { Caller } from '@igw/kernel';
import { AppError } from '@igw/kernel';
import { freePort } from '@igw/testing';
import type { McpUpstreams, OpenedMcpUpstream } from '../../application/ports/mcp-upstreams.port';
import type { EnforceMcpToolCallUseCase } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import type { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { MemoryMcpSessionStore } from '../memory/memory-mcp-session.store';
import { McpSessions } from './mcp-sessions';

const caller = (orgId: string, keyId = `key_${orgId}`): Caller => ({ orgId, keyId, scope: 'read_only' });

/** Two "replicas" (McpSessions instances) over one session store, as Redis makes them. */
describe('McpSessions over a shared store', () => {
  let upstream: OpenedMcpUpstream;
  let registered = true;
  const store = new MemoryMcpSessionStore();
  const upstreams: McpUpstreams = { resolve: async () => (registered ? upstream : null) };
  const replica = () => new McpSessions({} as EnforceMcpToolCallUseCase, {} as ListMcpToolsUseCase, store, upstreams, { maxSessionsPerOrg: 2, idleMs: 60_000 });
  let one: McpSessions;
  let two: McpSessions;

  beforeAll(async () => {
    // Nothing listens there: sessions open anyway (tools only) and fail their calls later.
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    upstream = { server: { id: 'mcs_1', orgId: 'org_a', name: 'files', url, headerNames: [], shadow: false, createdAt: new Date() }, headers: {} };
    [one, two] = [replica(), replica()];
  });
  afterAll(async () => {
    await one.onApplicationShutdown();
    await two.onApplicationShutdown();
  });

  it('a session opened on one replica is found on the other, only by its key and server', async () => {
    const opened = await one.open(caller('org_a'), true, upstream);
    expect(opened).toMatchObject({ orgId: 'org_a', keyId: 'key_org_a', server: 'files', mandatePath: true, capabilities: { tools: { listChanged: false } } });
    expect(await two.find(opened.id, caller('org_a'), 'files')).toEqual(opened);
    expect(await two.find(opened.id, caller('org_a', 'another_key'), 'files')).toBeNull();
    expect(await two.find(opened.id, caller('org_b'), 'files')).toBeNull();
    expect(await two.find(opened.id, caller('org_a'), 'other')).toBeNull();
    expect(await two.find('not-a-session-id', caller('org_a'), 'files')).toBeNull();
    await two.end(opened);
    expect(await one.find(opened.id, caller('org_a'), 'files')).toBeNull();
  });

  it("one organisation cannot take the others' sessions: its cap holds across replicas", async () => {
    await one.open(caller('org_c'), false, upstream);
    await two.open(caller('org_c'), false, upstream);
    const refused = await one.open(caller('org_c'), false, upstream).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toMatch(/this organisation has 2 MCP sessions open/);
    await expect(two.open(caller('org_d'), false, upstream)).resolves.toMatchObject({ orgId: 'org_d' });
  });

  it('a session whose server was removed from the registry ends when a replica next needs it', async () => {
    const opened = await one.open(caller('org_e'), false, upstream);
    registered = false;
    try {
      expect(await two.serve(opened, [], { token: '', clientId: 'key_org_e', scopes: [] }, new AbortController().signal)).toBeNull();
      expect(await one.find(opened.id, caller('org_e'), 'files')).toBeNull();
    } finally {
      registered = true;
    }
  });
});
