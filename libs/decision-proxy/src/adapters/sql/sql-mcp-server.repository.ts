import type { PageKey } from '@igw/kernel';
import { keysetPageSql, rethrowUnavailable, type ServiceDatabase } from '@igw/persistence';
import type { McpServerRepository, StoredMcpServer } from '../../application/ports/mcp-server.repository.port';

type Row = Record<string, unknown>;
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

const COLUMNS = `"id", "org_id", "name", "url", "headers_sealed", "header_names", "shadow", "kek_id", "created_at"`;

const toServer = (r: Row): StoredMcpServer => ({
  id: String(r['id']),
  orgId: String(r['org_id']),
  name: String(r['name']),
  url: String(r['url']),
  headerNames: json<string[]>(r['header_names']),
  shadow: r['shadow'] === true,
  createdAt: date(r['created_at']),
  headersSealed: (r['headers_sealed'] as string | null) ?? null,
  kekId: (r['kek_id'] as string | null) ?? null,
});

/** `mcp_servers` in the proxy's schema, with raw SQL; every statement is scoped by org. */
export class SqlMcpServerRepository implements McpServerRepository {
  private readonly t: string;

  constructor(private readonly db: ServiceDatabase) {
    this.t = `"${db.schema}"."mcp_servers"`;
  }

  async create(s: StoredMcpServer): Promise<'created' | 'name_taken'> {
    // ON CONFLICT on the (org_id, name) constraint: a taken name is an answer, not an error
    // (and two concurrent registrations of one name store exactly one).
    const rows = await this.db
      .query<Row>(
        `INSERT INTO ${this.t} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)
         ON CONFLICT ("org_id", "name") DO NOTHING RETURNING "id"`,
        [s.id, s.orgId, s.name, s.url, s.headersSealed, JSON.stringify(s.headerNames), s.shadow, s.kekId, s.createdAt.toISOString()],
      )
      .catch(rethrowUnavailable);
    return rows.length > 0 ? 'created' : 'name_taken';
  }

  async find(orgId: string, id: string): Promise<StoredMcpServer | null> {
    const rows = await this.db.query<Row>(`SELECT ${COLUMNS} FROM ${this.t} WHERE "org_id" = $1 AND "id" = $2`, [orgId, id]).catch(rethrowUnavailable);
    return rows[0] ? toServer(rows[0]) : null;
  }

  async findByName(orgId: string, name: string): Promise<StoredMcpServer | null> {
    const rows = await this.db.query<Row>(`SELECT ${COLUMNS} FROM ${this.t} WHERE "org_id" = $1 AND "name" = $2`, [orgId, name]).catch(rethrowUnavailable);
    return rows[0] ? toServer(rows[0]) : null;
  }

  async list(orgId: string, page: { limit: number; after: PageKey | null }): Promise<StoredMcpServer[]> {
    const [sql, params] = keysetPageSql({ select: COLUMNS, from: this.t, equal: [['org_id', orgId]], after: page.after, limit: page.limit });
    const rows = await this.db.query<Row>(sql, params).catch(rethrowUnavailable);
    return rows.map(toServer);
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<Row>(`DELETE FROM ${this.t} WHERE "org_id" = $1 AND "id" = $2 RETURNING "id"`, [orgId, id]).catch(rethrowUnavailable);
    return rows.length > 0;
  }
}
