import { newId, type Scope } from '@igw/kernel';
import { Topics, type EventEnvelope } from '@igw/contracts';
import { envelope } from '@igw/events';
import { displayPrefix } from '../domain/api-key';
import { hashApiKey } from './api-key-secrets';
import type { NewApiKey } from './ports/org.repository.port';

/**
 * A key record for `secret` (only its hash and display prefix are kept) and the api_key.created
 * event it is saved with: the same for a key made by an admin, with a new org, or at bootstrap.
 */
export function newApiKey(orgId: string, name: string, scope: Scope, secret: string, now: Date): { key: NewApiKey; created: EventEnvelope } {
  const key: NewApiKey = { id: newId('key'), orgId, name, scope, prefix: displayPrefix(secret), hash: hashApiKey(secret), createdAt: now, revokedAt: null };
  const created = envelope(Topics.ApiKeyCreated, orgId, { id: key.id, name, scope, created_at: now.toISOString() }, now);
  return { key, created };
}
