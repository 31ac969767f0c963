import type {
  CreateIntentionDto,
  CreateIntentionExampleDto,
  IntentionDto,
  IntentionExampleDto,
  IntentionExampleListDto,
  IntentionListDto,
  UpdateIntentionDto,
} from '@igw/contracts';

/** Examples of the intentions routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
export const CREATE_INTENTION_EXAMPLES: Record<string, { summary: string; value: CreateIntentionDto }> = {
  minimal: { summary: 'A label and a class', value: { label: 'crm.read_contacts', intent_class: 'lookup' } },
  bound: {
    summary: 'Bound to tools',
    value: { label: 'crm.contact_lookup', intent_class: 'lookup', tools: ['hubspot.get_contact', 'hubspot.search_*'] },
  },
  complete: {
    summary: 'With approval and data elements',
    value: {
      label: 'billing.refund',
      display_name: 'Refund an invoice',
      description: 'Issue a refund of at most one invoice to the customer who paid it. Cancelling a subscription is not covered.',
      intent_class: 'write',
      approval_required: true,
      ttl_minutes: 15,
      data_elements: [{ data_source_id: 'stripe', path: 'invoices.amount_paid' }],
      tools: ['stripe.refunds.create'],
    },
  },
};

export const INTENTION_EXAMPLE: IntentionDto = {
  id: 'int_0193a6f2c1d87c3e9b5a4f1e2d3c4b5a',
  label: 'billing.refund',
  display_name: 'Refund an invoice',
  description: 'Issue a refund of at most one invoice to the customer who paid it. Cancelling a subscription is not covered.',
  intent_class: 'write',
  status: 'draft',
  approval_required: true,
  ttl_minutes: 15,
  data_elements: [{ data_source_id: 'stripe', path: 'invoices.amount_paid' }],
  tools: ['stripe.refunds.create'],
  version: 1,
  created_at: '2026-11-26T09:30:00.000Z',
  updated_at: '2026-11-26T09:30:00.000Z',
};

export const ACTIVE_INTENTION_EXAMPLE: IntentionDto = { ...INTENTION_EXAMPLE, status: 'active', version: 2, updated_at: '2026-11-26T09:31:12.000Z' };
export const ARCHIVED_INTENTION_EXAMPLE: IntentionDto = { ...INTENTION_EXAMPLE, status: 'archived', version: 3, updated_at: '2026-11-26T10:02:45.000Z' };

export const INTENTION_LIST_EXAMPLE: IntentionListDto = {
  data: [ACTIVE_INTENTION_EXAMPLE],
  next_cursor: 'eyJ0IjoiMjAyNi0xMS0yNlQwOTozMDowMC4wMDBaIiwiaSI6ImludF8wMTkzIn0',
};

export const UPDATE_INTENTION_EXAMPLES: Record<string, { summary: string; value: UpdateIntentionDto }> = {
  tools: { summary: 'Bind it to tools', value: { tools: ['stripe.refunds.create', 'stripe.refunds.retrieve'] } },
  approval: { summary: 'Require approval, with a shorter grant', value: { approval_required: true, ttl_minutes: 5 } },
};

export const UPDATED_INTENTION_EXAMPLE: IntentionDto = {
  ...ACTIVE_INTENTION_EXAMPLE,
  tools: ['stripe.refunds.create', 'stripe.refunds.retrieve'],
  version: 3,
  updated_at: '2026-11-26T09:45:10.000Z',
};

export const CREATE_INTENTION_EXAMPLE_EXAMPLES: Record<string, { summary: string; value: CreateIntentionExampleDto }> = {
  covered: {
    summary: 'A call this intention covers',
    value: {
      tool_call: { name: 'stripe.refunds.create', arguments: { invoice: 'in_1Q2w3E', amount: 1200 } },
      conversation_context: [{ role: 'user', content: 'Please refund my last invoice, it was charged twice.' }],
      covered: true,
    },
  },
  not_covered: {
    summary: 'A call it must never match',
    value: { tool_call: { name: 'stripe.subscriptions.cancel', arguments: { subscription: 'sub_9Kx' } }, covered: false },
  },
};

export const INTENTION_EXAMPLE_EXAMPLE: IntentionExampleDto = {
  id: 'iex_0193a6f4e5b27d1c8a9f0e1d2c3b4a59',
  intention_id: INTENTION_EXAMPLE.id,
  tool_call: { name: 'stripe.refunds.create', arguments: { invoice: 'in_1Q2w3E', amount: 1200 } },
  conversation_context: [{ role: 'user', content: 'Please refund my last invoice, it was charged twice.' }],
  covered: true,
  source: 'manual',
  approval_id: null,
  created_at: '2026-11-26T09:50:00.000Z',
};

export const INTENTION_EXAMPLE_LIST_EXAMPLE: IntentionExampleListDto = {
  data: [
    {
      id: 'iex_0193a6f7a0c14e2b9d8c7b6a5f4e3d21',
      intention_id: INTENTION_EXAMPLE.id,
      tool_call: { name: 'stripe.subscriptions.cancel', arguments: { subscription: 'sub_9Kx' } },
      covered: false,
      source: 'approval',
      approval_id: 'apr_0193a6f70b2c4d5e8f9a0b1c2d3e4f56',
      created_at: '2026-11-26T09:53:00.000Z',
    },
    INTENTION_EXAMPLE_EXAMPLE,
  ],
  next_cursor: null,
};
