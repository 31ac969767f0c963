import type { VerifyGrantRequestDto, VerifyGrantResponseDto } from '@igw/contracts';
import { ALLOWED_EVALUATION_EXAMPLE, GRANT_EXAMPLE, LOOKUP_CALL } from './intent-evaluation.examples';

/** Examples of the grant routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
export const VERIFY_GRANT_REQUEST_EXAMPLES: Record<string, { summary: string; value: VerifyGrantRequestDto }> = {
  bound: { summary: 'A grant presented for the call it must authorise', value: { token: GRANT_EXAMPLE, tool_call: LOOKUP_CALL } },
  token_only: { summary: 'The grant alone (its call binding is not checked)', value: { token: GRANT_EXAMPLE } },
};

export const VERIFY_GRANT_RESPONSE_EXAMPLES: Record<string, { summary: string; value: VerifyGrantResponseDto }> = {
  valid: {
    summary: 'Valid for this org and this call',
    value: {
      valid: true,
      grant: {
        data_elements: ['hubspot:contacts.email', 'hubspot:contacts.phone'],
        intent_label: 'crm.read_contacts',
        intent_event_id: ALLOWED_EVALUATION_EXAMPLE.intent_event_id,
        user_id: 'usr_4821',
        expires_at: '2026-11-26T09:57:17.000Z',
      },
    },
  },
  other_call: { summary: 'Issued for another tool name or other arguments', value: { valid: false, reason: 'other_call' } },
  expired: { summary: 'Past its expiry', value: { valid: false, reason: 'expired' } },
};
