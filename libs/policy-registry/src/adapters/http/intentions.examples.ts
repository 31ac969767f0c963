import type { CreateIntentionDto, IntentionDto, IntentionListDto } from '@igw/contracts';

/** Examples of the intentions routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
export const CREATE_INTENTION_EXAMPLES: Record<string, { summary: string; value: CreateIntentionDto }> = {
  minimal: { summary: 'A label and a class', value: { label: 'crm.read_contacts', intent_class: 'lookup' } },
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
