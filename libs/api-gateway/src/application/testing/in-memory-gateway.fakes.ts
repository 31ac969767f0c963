import type { EventEnvelope } from '@igw/contracts';
import type { RateLimitPolicy } from '../../domain/rate-limit';
import type { AuthEpoch } from '../ports/auth-epoch.port';
import type { ApiKeyRecord, ApiKeyRepository, NewApiKey, OrgRecord, OrgRepository } from '../ports/org.repository.port';

/** In-memory stand-ins for the gateway's ports, for use-case unit tests. */
export class InMemoryGatewayStore implements OrgRepository, ApiKeyRepository {
  orgs = new Map<string, OrgRecord>();
  keys = new Map<string, NewApiKey>();
  events: EventEnvelope[] = [];
  lookups = 0;

  async createWithAdminKey(org: OrgRecord, key: NewApiKey, events: EventEnvelope[]) {
    this.orgs.set(org.id, org);
    this.keys.set(key.id, key);
    this.events.push(...events);
  }
  async findById(id: string) {
    return this.orgs.get(id) ?? null;
  }
  async findByName(name: string) {
    return [...this.orgs.values()].find((o) => o.name === name) ?? null;
  }
  async count() {
    return this.orgs.size;
  }
  async updateRateLimit(id: string, rateLimit: RateLimitPolicy | null) {
    const org = this.orgs.get(id);
    if (!org) return null;
    org.rateLimit = rateLimit;
    return org;
  }
  async create(key: NewApiKey, events: EventEnvelope[]) {
    this.keys.set(key.id, key);
    this.events.push(...events);
  }
  async listByOrg(orgId: string) {
    return [...this.keys.values()].filter((k) => k.orgId === orgId);
  }
  async findByHash(hash: string) {
    this.lookups++;
    const key = [...this.keys.values()].find((k) => k.hash === hash);
    const org = key && this.orgs.get(key.orgId);
    if (key && !org) throw new Error(`fake: key ${key.id} belongs to unknown org ${key.orgId}`);
    return key && org ? { key, org } : null;
  }
  async revoke(orgId: string, id: string, at: Date, events: (key: ApiKeyRecord) => EventEnvelope[]) {
    const key = this.keys.get(id);
    if (!key || key.orgId !== orgId) return null;
    if (!key.revokedAt) {
      key.revokedAt = at;
      this.events.push(...events(key));
    }
    return key;
  }
}

export class CountingEpoch implements AuthEpoch {
  value = 0;
  broken = false;
  async current() {
    if (this.broken) throw new Error('redis down');
    return this.value;
  }
  async bump() {
    this.value++;
  }
}
