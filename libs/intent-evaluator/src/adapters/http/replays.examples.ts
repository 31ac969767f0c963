import type { ReplayRequestDto, ReplayResultDto } from '@igw/contracts';

/** Examples of `POST /v1/replays` in the OpenAPI document (typed, and checked against the schemas by the linter). */
export const REPLAY_REQUEST_EXAMPLES: Record<string, { summary: string; value: ReplayRequestDto }> = {
  archive: {
    summary: 'What would archiving an intention refuse?',
    value: { kind: 'intentions', changes: [{ action: 'archive', id: 'int_01HZX3' }], since: '2026-11-26T00:00:00Z' },
  },
  bind: {
    summary: 'What would binding tools to an intention let through?',
    value: { kind: 'intentions', changes: [{ action: 'update', id: 'int_01HZX3', intention: { tools: ['hubspot.get_contact'] } }], limit: 5000 },
  },
  create: {
    summary: 'A new intention, as if it were published',
    value: {
      kind: 'intentions',
      changes: [{ action: 'create', intention: { label: 'billing.refund', intent_class: 'write', tools: ['stripe.create_refund'] } }],
    },
  },
  card: {
    summary: 'What would narrowing an intent card refuse?',
    value: {
      kind: 'card',
      card: {
        id: 'crm-agent',
        name: 'CRM agent',
        allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://**'] },
        audiences: ['crm-api'],
      },
      since: '2026-11-26T00:00:00Z',
    },
  },
};

export const REPLAY_RESULT_EXAMPLE: ReplayResultDto = {
  replayed: 8412,
  transitions: [{ from: 'allowed', to: 'denied', count: 37 }],
  calls: [
    {
      id: 'iev_01HZX9K3M4',
      tool_name: 'hubspot.get_contact',
      before: { outcome: 'allowed', intent_label: 'crm.read_contacts' },
      after: { outcome: 'denied', intent_label: 'ambient' },
    },
  ],
  next_cursor: null,
};
