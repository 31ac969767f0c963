import { AppError, FixedClock, type Caller, type PageKey } from '@igw/kernel';
import type { RegisterMcpServerDto } from '@igw/contracts';
import { RecordingSealer } from '@igw/testing/unit';
import type { McpServerRepository, StoredMcpServer } from '../ports/mcp-server.repository.port';
import type { UpstreamDestinationCheck } from '../ports/upstream-destination.port';
import { RegisteredMcpUpstreams } from '../registered-mcp-upstreams';
import { DeleteMcpServerUseCase } from './delete-mcp-server.use-case';
import { GetMcpServerUseCase } from './get-mcp-server.use-case';
import { ListMcpServersUseCase } from './list-mcp-servers.use-case';
import { RegisterMcpServerUseCase } from './register-mcp-server.use-case';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const caller = (orgId = 'org_a'): Caller => ({ orgId, keyId: 'key_writer', scope: 'policy_write' as Caller['scope'] });

class MemoryServers implements McpServerRepository {
  readonly rows = new Map<string, StoredMcpServer>();
  async create(s: StoredMcpServer): Promise<'created' | 'name_taken'> {
    if ([...this.rows.values()].some((r) => r.orgId === s.orgId && r.name === s.name)) return 'name_taken';
    this.rows.set(s.id, structuredClone(s));
    return 'created';
  }
  async find(orgId: string, id: string): Promise<StoredMcpServer | null> {
    const s = this.rows.get(id);
    return s && s.orgId === orgId ? structuredClone(s) : null;
  }
  async findByName(orgId: string, name: string): Promise<StoredMcpServer | null> {
    return structuredClone([...this.rows.values()].find((s) => s.orgId === orgId && s.name === name) ?? null);
  }
  async list(orgId: string, page: { limit: number; after: PageKey | null }): Promise<StoredMcpServer[]> {
    return [...this.rows.values()]
      .filter((s) => s.orgId === orgId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .slice(0, page.limit + 1);
  }
  async delete(orgId: string, id: string): Promise<boolean> {
    const s = this.rows.get(id);
    return !!s && s.orgId === orgId && this.rows.delete(id);
  }
}

/** Refuses loopback, private and link-local literals (like the real guard with allowPrivate=false). */
class FakeDestinations implements UpstreamDestinationCheck {
  readonly asked: string[] = [];
  async problem(url: string): Promise<string | null> {
    this.asked.push(url);
    const host = new URL(url).hostname;
    return /^(127\.|10\.|169\.254\.|\[::1\]|localhost)/.test(host) ? `url points at ${host}, which is not a public address` : null;
  }
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('MCP server registry use cases', () => {
  let servers: MemoryServers;
  let sealer: RecordingSealer;
  let destinations: FakeDestinations;
  let register: RegisterMcpServerUseCase;
  const body = (over: Partial<RegisterMcpServerDto> = {}): RegisterMcpServerDto => ({ name: 'crm', url: 'https://mcp.example.com/mcp', ...over });

  beforeEach(() => {
    servers = new MemoryServers();
    sealer = new RecordingSealer();
    destinations = new FakeDestinations();
    register = new RegisterMcpServerUseCase(servers, destinations, sealer, new FixedClock(NOW));
  });

  it('registers: the answer names the headers but never their values; the store holds them sealed under the server id', async () => {
    const dto = await register.execute(caller(), body({ headers: { Authorization: 'Bearer upstream-secret', 'X-Tenant': 't1' }, shadow: true }));
    expect(dto).toEqual({
      id: expect.stringMatching(/^mcs_/),
      name: 'crm',
      url: 'https://mcp.example.com/mcp',
      header_names: ['Authorization', 'X-Tenant'],
      shadow: true,
      created_at: NOW.toISOString(),
    });
    expect(JSON.stringify(dto)).not.toContain('upstream-secret');
    const stored = servers.rows.get(dto.id)!;
    expect(JSON.stringify(stored)).not.toContain('upstream-secret');
    expect(stored).toMatchObject({ orgId: 'org_a', headersSealed: 'sealed#1', kekId: 'kek_test' });
    expect(sealer.sealed).toEqual([{ plain: JSON.stringify({ Authorization: 'Bearer upstream-secret', 'X-Tenant': 't1' }), aad: dto.id, sealed: 'sealed#1' }]);
  });

  it('without headers stores nothing sealed, and shadow defaults to false', async () => {
    const dto = await register.execute(caller(), body());
    expect(dto).toMatchObject({ header_names: [], shadow: false });
    expect(servers.rows.get(dto.id)).toMatchObject({ headersSealed: null, kekId: null });
    expect(sealer.sealed).toEqual([]);
  });

  it('a name the org already uses is 409 name_conflict; another org may use it', async () => {
    await register.execute(caller(), body());
    const err = await rejection(register.execute(caller(), body({ url: 'https://other.example.com/mcp' })));
    expect(err).toMatchObject({ kind: 'conflict', code: 'name_conflict' });
    expect(err.message).toContain('crm');
    await expect(register.execute(caller('org_b'), body())).resolves.toMatchObject({ name: 'crm' });
    expect(servers.rows.size).toBe(2);
  });

  it.each([
    ['http://127.0.0.1:8080/mcp', 'loopback'],
    ['http://169.254.169.254/mcp', 'link-local'],
    ['https://10.0.0.5/mcp', 'private'],
  ])('refuses %s (%s) with 400 naming url, storing nothing', async (url) => {
    const err = await rejection(register.execute(caller(), body({ url })));
    expect(err).toMatchObject({
      kind: 'invalid',
      code: 'invalid_request',
      extra: { details: [{ path: 'url', message: expect.stringContaining('not a public address') }] },
    });
    expect(servers.rows.size).toBe(0);
  });

  it.each([
    ['ftp://mcp.example.com/x', 'url must use https (or http)'],
    ['not a url', 'url must be an absolute http(s) URL'],
    ['https://user:pw@mcp.example.com/mcp', 'url must not carry credentials (use headers)'],
  ])('refuses the url %p before resolving it', async (url, message) => {
    const err = await rejection(register.execute(caller(), body({ url })));
    expect(err).toMatchObject({ code: 'invalid_request', message, extra: { details: [{ path: 'url', message }] } });
    expect(destinations.asked).toEqual([]);
  });

  it('refuses a bad name with 400 naming name', async () => {
    const err = await rejection(register.execute(caller(), body({ name: 'Bad Name' })));
    expect(err).toMatchObject({ code: 'invalid_request', extra: { details: [{ path: 'name', message: expect.stringContaining('name must match') }] } });
  });

  it('get, list and delete are scoped to the caller’s org: another org’s id is 404', async () => {
    const mine = await register.execute(caller(), body());
    const theirs = await register.execute(caller('org_b'), body({ name: 'other' }));
    const get = new GetMcpServerUseCase(servers);
    const list = new ListMcpServersUseCase(servers);
    const remove = new DeleteMcpServerUseCase(servers);
    await expect(get.execute(caller(), mine.id)).resolves.toEqual(mine);
    expect(await rejection(get.execute(caller(), theirs.id))).toMatchObject({ kind: 'not_found', code: 'not_found' });
    expect(await list.execute(caller(), {})).toEqual({ data: [mine], next_cursor: null });
    expect(await rejection(remove.execute(caller(), theirs.id))).toMatchObject({ kind: 'not_found' });
    expect(servers.rows.has(theirs.id)).toBe(true);
    await remove.execute(caller(), mine.id);
    expect(await rejection(get.execute(caller(), mine.id))).toMatchObject({ kind: 'not_found' });
    expect(await rejection(remove.execute(caller(), mine.id))).toMatchObject({ kind: 'not_found' });
  });

  it('lists newest first in keyset pages', async () => {
    const clock = new FixedClock(NOW);
    const reg = new RegisterMcpServerUseCase(servers, destinations, sealer, clock);
    const made = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      made.push(await reg.execute(caller(), body({ name: `s${i}` })));
    }
    const list = new ListMcpServersUseCase(servers);
    const first = await list.execute(caller(), { limit: '2' });
    expect(first.data.map((s) => s.name)).toEqual(['s2', 's1']);
    expect(first.next_cursor).toEqual(expect.any(String));
  });

  it('MCP_UPSTREAMS resolves the org’s server by name with its headers opened; another org’s name is null', async () => {
    const dto = await register.execute(caller(), body({ headers: { Authorization: 'Bearer upstream-secret' } }));
    const upstreams = new RegisteredMcpUpstreams(servers, sealer);
    await expect(upstreams.resolve('org_a', 'crm')).resolves.toEqual({
      server: { id: dto.id, orgId: 'org_a', name: 'crm', url: 'https://mcp.example.com/mcp', headerNames: ['Authorization'], shadow: false, createdAt: NOW },
      headers: { Authorization: 'Bearer upstream-secret' },
    });
    await expect(upstreams.resolve('org_b', 'crm')).resolves.toBeNull();
    await expect(upstreams.resolve('org_a', 'nope')).resolves.toBeNull();
    // A sealed value moved to another row does not open (aad = the server id).
    const other = await register.execute(caller(), body({ name: 'moved' }));
    servers.rows.get(other.id)!.headersSealed = servers.rows.get(dto.id)!.headersSealed;
    await expect(upstreams.resolve('org_a', 'moved')).rejects.toThrow('cannot open');
  });
});
