import type { IntentCardEventV1 } from '@igw/contracts';

/** An intent card event for read-model and decision specs: a CRM reader card, no rules, org version 1; `over` replaces fields. */
export function intentCardEventFixture(id: string, over: Partial<IntentCardEventV1> = {}): IntentCardEventV1 {
  return {
    id,
    name: id,
    description: '',
    allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.*.delete'] },
    audiences: ['crm-api'],
    max_ttl_seconds: 300,
    shadow: false,
    rules: [],
    version: 1,
    org_version: 1,
    created_at: '2026-11-22T12:00:00Z',
    updated_at: '2026-11-22T12:00:00Z',
    ...over,
  };
}
