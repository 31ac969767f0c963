import { closeEmbeddedDatabase, migrate, openEmbeddedDatabase, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { DependencyUnavailableError, toPage, type PageKey } from '@igw/kernel';
import {
  DEAD_DATABASE_URL,
  dropTestSchema,
  openMigratedSchema,
  testSchemaName,
  atTestTime as at,
  uniqueOrgId as newOrg,
  randomHex as rnd,
} from '@igw/persistence/testing';
import type { StoredMcpServer } from '../../application/ports/mcp-server.repository.port';
import { DECISION_PROXY_MIGRATIONS } from '../../decision-proxy.module';
import { SqlMcpServerRepository } from './sql-mcp-server.repository';

let seq = 0;
function server(orgId: string, over: Partial<StoredMcpServer> = {}): StoredMcpServer {
  seq++;
  return {
    id: `mcs_${rnd()}_${seq}`,
    orgId,
    name: `srv-${seq}`,
    url: `https://mcp.example.com/${seq}`,
    headerNames: ['Authorization'],
    shadow: false,
    createdAt: at(seq * 1000),
    headersSealed: `sealed-${seq}`,
    kekId: 'kek_1',
    ...over,
  };
}

/** The same contract on both stores the proxy runs on: PostgreSQL (distributed) and PGlite (embedded). */
describe.each([
  ['PostgreSQL', () => openMigratedSchema(testSchemaName('mcp_servers'), DECISION_PROXY_MIGRATIONS, 4), dropTestSchema],
  [
    'PGlite',
    async () => {
      const db = openEmbeddedDatabase('memory://', 'decision_proxy');
      await migrate(db, DECISION_PROXY_MIGRATIONS);
      return db;
    },
    async () => closeEmbeddedDatabase(),
  ],
] as const)('SqlMcpServerRepository (%s)', (_store, open, close) => {
  let db: ServiceDatabase;
  let repo: SqlMcpServerRepository;

  beforeAll(async () => {
    db = await open();
    repo = new SqlMcpServerRepository(db);
  });
  afterAll(async () => {
    await close(db);
  });

  it('stores and reads back every field, by id and by name, only within the org', async () => {
    const org = newOrg('a');
    const s = server(org, { headerNames: ['Authorization', 'X-Tenant'], shadow: true });
    expect(await repo.create(s)).toBe('created');
    expect(await repo.find(org, s.id)).toEqual(s);
    expect(await repo.findByName(org, s.name)).toEqual(s);
    const other = newOrg('b');
    expect(await repo.find(other, s.id)).toBeNull();
    expect(await repo.findByName(other, s.name)).toBeNull();
  });

  it('keeps no headers as NULL', async () => {
    const org = newOrg('a');
    const s = server(org, { headerNames: [], headersSealed: null, kekId: null });
    await repo.create(s);
    expect(await repo.find(org, s.id)).toEqual(s);
  });

  it('a name is unique per org: the second is name_taken and stores nothing; another org may use it', async () => {
    const org = newOrg('a');
    const first = server(org, { name: 'crm' });
    expect(await repo.create(first)).toBe('created');
    expect(await repo.create(server(org, { name: 'crm', url: 'https://other.example.com' }))).toBe('name_taken');
    expect(await repo.findByName(org, 'crm')).toEqual(first);
    expect(await repo.create(server(newOrg('b'), { name: 'crm' }))).toBe('created');
  });

  it('two concurrent registrations of one name store exactly one', async () => {
    const org = newOrg('a');
    const results = await Promise.all([repo.create(server(org, { name: 'race' })), repo.create(server(org, { name: 'race' }))]);
    expect(results.sort()).toEqual(['created', 'name_taken']);
  });

  it('lists the org’s servers newest first in keyset pages (ties broken by id)', async () => {
    const org = newOrg('a');
    const made = [server(org), server(org), server(org, { createdAt: at(seq * 1000) }), server(org)];
    // Two with the same created_at: the id decides.
    made[2] = { ...made[2]!, createdAt: made[1]!.createdAt };
    for (const s of made) await repo.create(s);
    await repo.create(server(newOrg('b')));
    const expected = [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id > a.id ? 1 : -1)).map((s) => s.id);
    const seen: string[] = [];
    let after: PageKey | null = null;
    for (;;) {
      const page: { items: StoredMcpServer[]; nextCursor: string | null } = toPage(await repo.list(org, { limit: 2, after }), 2);
      seen.push(...page.items.map((s) => s.id));
      if (!page.nextCursor) break;
      after = page.items[page.items.length - 1]!;
    }
    expect(seen).toEqual(expected);
  });

  it('deletes only within the org', async () => {
    const org = newOrg('a');
    const s = server(org);
    await repo.create(s);
    expect(await repo.delete(newOrg('b'), s.id)).toBe(false);
    expect(await repo.find(org, s.id)).toEqual(s);
    expect(await repo.delete(org, s.id)).toBe(true);
    expect(await repo.find(org, s.id)).toBeNull();
    expect(await repo.delete(org, s.id)).toBe(false);
    // The name is free again.
    expect(await repo.create(server(org, { name: s.name }))).toBe('created');
  });
});

describe('SqlMcpServerRepository with the database down', () => {
  it('fails as unavailable (503), never as an answer', async () => {
    const dead = openPostgresDatabase(DEAD_DATABASE_URL, 'decision_proxy', 1);
    const repo = new SqlMcpServerRepository(dead);
    try {
      await expect(repo.findByName('org_x', 'crm')).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(repo.create(server('org_x'))).rejects.toBeInstanceOf(DependencyUnavailableError);
    } finally {
      await dead.close();
    }
  });
});
