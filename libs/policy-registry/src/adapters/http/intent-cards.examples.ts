import type { InstallIntentCardDto, IntentCardDto, IntentCardListDto } from '@igw/contracts';

/** The card of the `complete` example, as installed and as answered. */
const CRM_SUPPORT_CARD = {
  id: 'crm-support',
  name: 'CRM support assistant',
  description: 'Reads and updates customer records for support tickets. Exports and deletions are not covered.',
  allowed_scope: {
    operations: ['crm.contacts.*', 'crm.refunds.create'],
    resources: ['crm://customers/**'],
    forbidden_operations: ['crm.contacts.delete*'],
  },
  audiences: ['crm-api'],
  max_ttl_seconds: 900,
  shadow: false,
  rules: [
    {
      id: 'block-bulk-export',
      when: 'action.operation == "crm.contacts.export" && size(action.arguments) > 2',
      decision: { kind: 'deny', reason: 'bulk_export', message: 'Bulk exports are not allowed for support agents.' },
    },
    {
      id: 'approve-large-refund',
      when: 'action.operation == "crm.refunds.create" && has(action.arguments.amount) && action.arguments.amount > 500',
      decision: { kind: 'approval', reason: 'large_refund' },
    },
    {
      id: 'redact-outside-support',
      when: '!(context.department in ["support", "billing"])',
      decision: { kind: 'allow_with_redact', redact_fields: ['email', 'phone'] },
    },
  ],
} satisfies InstallIntentCardDto;

/** Examples of the intent-cards routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
export const INSTALL_INTENT_CARD_EXAMPLES: Record<string, { summary: string; value: InstallIntentCardDto }> = {
  minimal: {
    summary: 'A scope and an audience; the id is generated',
    value: {
      name: 'CRM read-only assistant',
      allowed_scope: { operations: ['crm.contacts.read', 'crm.contacts.search*'], resources: ['crm://customers/*'] },
      audiences: ['crm-api'],
    },
  },
  complete: {
    summary: 'With an id of your choice and rules (installing it again replaces the card)',
    value: CRM_SUPPORT_CARD,
  },
};

/** The card the `complete` body installs, the first time (201). */
export const INTENT_CARD_EXAMPLE: IntentCardDto = {
  ...CRM_SUPPORT_CARD,
  version: 1,
  created_at: '2026-11-26T09:40:00.000Z',
  updated_at: '2026-11-26T09:40:00.000Z',
};

/** The same id installed again (200): the new content, version + 1, created_at kept. */
export const REPLACED_INTENT_CARD_EXAMPLE: IntentCardDto = {
  ...INTENT_CARD_EXAMPLE,
  max_ttl_seconds: 600,
  version: 2,
  updated_at: '2026-11-26T11:05:30.000Z',
};

/** The `minimal` body installed: the id generated, the defaults filled in. */
export const GENERATED_INTENT_CARD_EXAMPLE: IntentCardDto = {
  id: 'card_0193a6f8d2e47b1c8a9f3e2d1c0b4a59',
  name: 'CRM read-only assistant',
  description: '',
  allowed_scope: { operations: ['crm.contacts.read', 'crm.contacts.search*'], resources: ['crm://customers/*'], forbidden_operations: [] },
  audiences: ['crm-api'],
  max_ttl_seconds: 3600,
  shadow: false,
  rules: [],
  version: 1,
  created_at: '2026-11-26T09:35:00.000Z',
  updated_at: '2026-11-26T09:35:00.000Z',
};

export const INTENT_CARD_LIST_EXAMPLE: IntentCardListDto = {
  data: [INTENT_CARD_EXAMPLE, GENERATED_INTENT_CARD_EXAMPLE],
  next_cursor: 'eyJjcmVhdGVkX2F0IjoiMjAyNi0xMS0yNlQwOTozNTowMC4wMDBaIiwiaWQiOiJjYXJkXzAxOTNhNmY4ZDJlNDdiMWM4YTlmM2UyZDFjMGI0YTU5In0',
};
