import { newId } from '@igw/kernel';
import type { EventEnvelope } from '@igw/contracts';
import { rememberTraceParent } from './trace-links';

export function envelope<T>(topic: { name: string; version: number }, orgId: string, data: T, occurredAt: Date): EventEnvelope<T> {
  const id = newId('evt');
  rememberTraceParent(id);
  return { id, type: topic.name, org_id: orgId, occurred_at: occurredAt.toISOString(), schema_version: topic.version, data };
}
