import type { IntentionEventV1 } from '../events/payloads';

/**
 * Wire-level intention fixtures, shared by the contracts specs, the internal clients' specs and
 * the services' specs and suites so every side tests the same shapes.
 */

/** What `POST /v1/intentions` with `{label: 'crm.lookup', intent_class: 'lookup'}` answers, but the server fields. */
export const DRAFT_CRM_LOOKUP = {
  label: 'crm.lookup',
  display_name: 'crm.lookup',
  description: '',
  intent_class: 'lookup',
  status: 'draft',
  approval_required: false,
  ttl_minutes: 15,
  data_elements: [],
  tools: [],
} as const;

/** A published intention as its events and snapshots carry it. */
export const intentionEvent = (over: Partial<IntentionEventV1> = {}): IntentionEventV1 => ({
  id: 'int_1',
  label: 'crm.lookup',
  display_name: 'CRM lookup',
  description: '',
  intent_class: 'lookup',
  status: 'active',
  approval_required: false,
  ttl_minutes: 15,
  data_elements: [{ data_source_id: 'crm', path: 'customers.email' }],
  version: 2,
  org_version: 7,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:01:00.000Z',
  ...over,
});
