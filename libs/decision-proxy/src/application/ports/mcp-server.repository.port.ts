import type { PageKey } from '@igw/kernel';
import type { McpServer } from '../../domain';

export const MCP_SERVER_REPOSITORY = Symbol('MCP_SERVER_REPOSITORY');

/** A registration as stored: the forwarded headers sealed (null when there are none), and the KEK that sealed them. */
export interface StoredMcpServer extends McpServer {
  headersSealed: string | null;
  kekId: string | null;
}

/** Registered upstreams; every read and write is scoped to one org. */
export interface McpServerRepository {
  /** Stores it; `name_taken` (and nothing stored) when the org already has a server of that name. */
  create(server: StoredMcpServer): Promise<'created' | 'name_taken'>;
  find(orgId: string, id: string): Promise<StoredMcpServer | null>;
  findByName(orgId: string, name: string): Promise<StoredMcpServer | null>;
  /** Newest first, at most `limit + 1` rows after `after` (so the caller can tell a next page follows). */
  list(orgId: string, page: { limit: number; after: PageKey | null }): Promise<StoredMcpServer[]>;
  /** False when the org has no such server. */
  delete(orgId: string, id: string): Promise<boolean>;
}
