import type { EvaluateIntentRequestDto, EvaluateIntentResponseDto, IntentEventDto, IntentHistoryDto } from '@igw/contracts';

/** Examples of the intent evaluation routes in the OpenAPI document (typed, and checked against the schemas by the linter). */

/** A grant as evaluate answers it: a compact EdDSA JWS of type grant+jwt (the signature here is made up). */
export const GRANT_EXAMPLE =
  'eyJhbGciOiJFZERTQSIsInR5cCI6ImdyYW50K2p3dCIsImtpZCI6IlFtM1cxZjdZcE4wdVhjNXRIazJqUjhzTGRBNHZHZVpiNm9UaUt5OVB3RXMifQ.' +
  'eyJpc3MiOiJpbnRlbnQtZ2F0ZXdheSIsInN1YiI6InVzcl80ODIxIiwib3JnIjoib3JnXzAxOTNhNmYwYTFiMjdjM2Q4ZTlmMGExYjJjM2Q0ZTVmIiwiaW50ZW50IjoiY3JtLnJlYWRfY29udGFjdHMiLCJkYXRhX2VsZW1lbnRzIjpbImh1YnNwb3Q6Y29udGFjdHMuZW1haWwiLCJodWJzcG90OmNvbnRhY3RzLnBob25lIl0sImV2dCI6Imlldl8wMTkzYTZmNGQyZTg3YTFiOWMzZDVlN2Y5YTFiM2M1ZCIsImNhbGwiOiIzZjI2OTg1MTdiOWZjNmNmNjJlM2UyYjkwNjA4MjYyYTk1OTI1ZmRkYjIyZjRlZWUyNTcwYzViZDdlODkwYWFmIiwiaWF0IjoxNzk1Njg2MTM3LCJleHAiOjE3OTU2ODcwMzcsImp0aSI6ImdydF8wMTkzYTZmNGQyZTk3YjJjOGQ0ZTZmODA5MWEyYjNjNCJ9.' +
  'c3mzsyYxA-IqetFe-tvyVxm7zE6Pajcwt6xGLn_yhudCp_cuQLMt5KCe0wfyPmWCYJb3sPaeK0oEDH5lqAi7wQ';

export const LOOKUP_CALL = { name: 'hubspot.get_contact', arguments: { email: 'ada@example.com', fields: ['email', 'phone'] } };

export const EVALUATE_REQUEST_EXAMPLES: Record<string, { summary: string; value: EvaluateIntentRequestDto }> = {
  allowed: {
    summary: 'A lookup an active intention covers',
    value: {
      tool_call: LOOKUP_CALL,
      user_id: 'usr_4821',
      session_id: 'ses_7f3a',
      conversation_context: [{ role: 'user', content: 'What is the phone number of our contact Ada?' }],
      data_source_id: 'hubspot',
    },
  },
  denied: {
    summary: 'A call no intention covers',
    value: { tool_call: { name: 'hubspot.delete_contact', arguments: { contact_id: '80411' } }, user_id: 'usr_4821' },
  },
  approval: {
    summary: 'A call whose intention requires approval',
    value: { tool_call: { name: 'stripe.create_refund', arguments: { invoice: 'in_1QxY7b', amount: 4900 } }, user_id: 'usr_4821', data_source_id: 'stripe' },
  },
};

export const ALLOWED_EVALUATION_EXAMPLE: EvaluateIntentResponseDto = {
  outcome: 'allowed',
  intent_label: 'crm.read_contacts',
  intent_event_id: 'iev_0193a6f4d2e87a1b9c3d5e7f9a1b3c5d',
  intent_class: 'lookup',
  confidence: 1,
  data_elements: ['hubspot:contacts.email', 'hubspot:contacts.phone'],
  shadow_mode: false,
  processing_time_ms: 3,
  approval_request_id: null,
  grant: GRANT_EXAMPLE,
  policy_id: 'int_0193a6f2c1d87c3e9b5a4f1e2d3c4b5a@2',
  classification_evidence: {
    classification_method: 'binding',
    evaluation_layers_consulted: ['binding'],
    confidence: 1,
    certain: true,
    matched_binding: 'hubspot.get_contact',
    supporting_evidence: [
      { intent_label: 'crm.read_contacts', intention_id: 'int_0193a6f2c1d87c3e9b5a4f1e2d3c4b5a', intent_class: 'lookup', matched_terms: [] },
    ],
    schema_version: 1,
  },
  reason: null,
};

export const DENIED_EVALUATION_EXAMPLE: EvaluateIntentResponseDto = {
  outcome: 'denied',
  intent_label: 'ambient',
  intent_event_id: 'iev_0193a6f51a0c7d2e8f4a6b8c0d2e4f60',
  intent_class: 'other',
  confidence: 0.88,
  data_elements: [],
  shadow_mode: false,
  processing_time_ms: 2,
  approval_request_id: null,
  policy_id: 'ambient',
  classification_evidence: {
    classification_method: 'lexical',
    evaluation_layers_consulted: ['lexical'],
    confidence: 0.88,
    certain: false,
    supporting_evidence: [
      {
        intent_label: 'crm.read_contacts',
        intention_id: 'int_0193a6f2c1d87c3e9b5a4f1e2d3c4b5a',
        intent_class: 'lookup',
        score: 2.105,
        relative_score: 0.23,
        matched_terms: ['contact'],
      },
    ],
    schema_version: 1,
  },
  reason: 'ambient',
};

export const PENDING_APPROVAL_EVALUATION_EXAMPLE: EvaluateIntentResponseDto = {
  outcome: 'pending_approval',
  intent_label: 'billing.refund',
  intent_event_id: 'iev_0193a6f6b4c17e3f9a5b7c9d1e3f5a7b',
  intent_class: 'write',
  confidence: 0.91,
  data_elements: ['stripe:invoices.amount_paid'],
  shadow_mode: false,
  processing_time_ms: 6,
  approval_request_id: 'apr_0193a6f6b4d27f4a8b6c8d0e2f4a6b8c',
  policy_id: 'int_0193a6f3d4e57a6b8c9d0e1f2a3b4c5d@1',
  classification_evidence: {
    classification_method: 'lexical',
    evaluation_layers_consulted: ['lexical'],
    confidence: 0.91,
    certain: false,
    supporting_evidence: [
      {
        intent_label: 'billing.refund',
        intention_id: 'int_0193a6f3d4e57a6b8c9d0e1f2a3b4c5d',
        intent_class: 'write',
        score: 6.87,
        relative_score: 0.77,
        probability: 0.91,
        matched_terms: ['invoice', 'refund'],
      },
    ],
    schema_version: 1,
  },
  reason: 'uncertain_match',
};

export const EVALUATE_RESPONSE_EXAMPLES: Record<string, { summary: string; value: EvaluateIntentResponseDto }> = {
  allowed: { summary: 'Allowed, with a grant', value: ALLOWED_EVALUATION_EXAMPLE },
  denied: { summary: 'Denied: no intention covers the call', value: DENIED_EVALUATION_EXAMPLE },
  pending_approval: { summary: 'Held for approval (a person decides in /v1/approvals)', value: PENDING_APPROVAL_EVALUATION_EXAMPLE },
};

const ALLOWED_EVENT: IntentEventDto = {
  id: ALLOWED_EVALUATION_EXAMPLE.intent_event_id,
  outcome: 'allowed',
  intent_label: 'crm.read_contacts',
  intent_class: 'lookup',
  confidence: 0.94,
  tool_name: 'hubspot.get_contact',
  user_id: 'usr_4821',
  session_id: 'ses_7f3a',
  conversation_id: null,
  shadow_mode: false,
  policy_id: 'int_0193a6f2c1d87c3e9b5a4f1e2d3c4b5a@2',
  approval_request_id: null,
  data_elements: ['hubspot:contacts.email', 'hubspot:contacts.phone'],
  processing_time_ms: 3,
  created_at: '2026-11-26T09:42:17.512Z',
};

const DENIED_EVENT: IntentEventDto = {
  id: DENIED_EVALUATION_EXAMPLE.intent_event_id,
  outcome: 'denied',
  intent_label: 'ambient',
  intent_class: 'other',
  confidence: 0.88,
  tool_name: 'hubspot.delete_contact',
  user_id: 'usr_4821',
  session_id: null,
  conversation_id: null,
  shadow_mode: false,
  policy_id: 'ambient',
  approval_request_id: null,
  data_elements: [],
  processing_time_ms: 2,
  created_at: '2026-11-26T09:43:02.087Z',
};

export const INTENT_HISTORY_EXAMPLE: IntentHistoryDto = {
  data: [DENIED_EVENT, ALLOWED_EVENT],
  next_cursor: 'eyJ0IjoiMjAyNi0xMS0yNlQwOTo0MjoxNy41MTJaIiwiaSI6Imlldl8wMTkzYTZmNGQyZTg3YTFiOWMzZDVlN2Y5YTFiM2M1ZCJ9',
};
