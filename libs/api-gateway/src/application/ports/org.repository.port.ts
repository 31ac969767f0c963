import type { EventEnvelope } from '@igw/contracts';
import type { Scope } from '@igw/kernel';
import type { RateLimitPolicy } from '../../domain/rate-limit';

export const ORG_REPOSITORY = Symbol('ORG_REPOSITORY');
export const API_KEY_REPOSITORY = Symbol('API_KEY_REPOSITORY');

export interface OrgRecord {
  id: string;
  name: string;
  /** null: the deployment's default applies. */
  rateLimit: RateLimitPolicy | null;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  scope: Scope;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface NewApiKey extends ApiKeyRecord {
  /** SHA-256 of the key; the key itself is never stored. */
  hash: string;
}

/** Each write also stores its events in the outbox, in the same transaction. */
export interface OrgRepository {
  createWithAdminKey(org: OrgRecord, key: NewApiKey, events: EventEnvelope[]): Promise<void>;
  findById(id: string): Promise<OrgRecord | null>;
  findByName(name: string): Promise<OrgRecord | null>;
  count(): Promise<number>;
  updateRateLimit(id: string, rateLimit: RateLimitPolicy | null): Promise<OrgRecord | null>;
}

export interface ApiKeyRepository {
  create(key: NewApiKey, events: EventEnvelope[]): Promise<void>;
  listByOrg(orgId: string): Promise<ApiKeyRecord[]>;
  findByHash(hash: string): Promise<{ key: ApiKeyRecord; org: OrgRecord } | null>;
  /** Sets revoked_at if not yet set. null when the key is not in this org. */
  revoke(orgId: string, id: string, at: Date, events: (key: ApiKeyRecord) => EventEnvelope[]): Promise<ApiKeyRecord | null>;
}
