import type { Caller } from '@igw/kernel';
import { freePort } from '@igw/testing';
import type { OpenedMcpUpstream } from '../../application/ports/mcp-upstreams.port';
import type { EnforceMcpToolCallUseCase } from '../../application/use-cases/enforce-mcp-tool-call.use-case';
import type { ListMcpToolsUseCase } from '../../application/use-cases/list-mcp-tools.use-case';
import { McpSessions } from './mcp-sessions';

const caller = (orgId: string): Caller => ({ orgId, keyId: `key_${orgId}`, scope: 'read_only' });

describe('McpSessions caps', () => {
  let sessions: McpSessions;
  let upstream: OpenedMcpUpstream;

  beforeAll(async () => {
    // Nothing listens there: sessions open anyway (tools only) and fail their calls later.
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    upstream = { server: { id: 'mcs_1', orgId: 'org_a', name: 'files', url, headerNames: [], shadow: false, createdAt: new Date() }, headers: {} };
    sessions = new McpSessions({} as EnforceMcpToolCallUseCase, {} as ListMcpToolsUseCase, { maxSessions: 3, maxSessionsPerOrg: 2 });
  });
  afterAll(() => sessions.onModuleDestroy());

  it('one organisation cannot take the sessions of the others', async () => {
    const a1 = await sessions.open(caller('org_a'), true, upstream);
    expect(sessions.refusal('org_a')).toBeNull();
    await sessions.open(caller('org_a'), true, upstream);
    expect(sessions.refusal('org_a')).toMatch(/this organisation has 2 MCP sessions open/);
    expect(sessions.refusal('org_b')).toBeNull();
    await sessions.open(caller('org_b'), false, upstream);
    // The process cap holds for everyone.
    expect(sessions.refusal('org_c')).toMatch(/too many MCP sessions/);
    sessions.abandon(a1);
    expect(sessions.refusal('org_a')).toBeNull();
    expect(sessions.refusal('org_c')).toBeNull();
  });
});
