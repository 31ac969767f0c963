import type { ApprovalDto, ApprovalListDto, DenyApprovalDto, ErrorDto } from '@igw/contracts';

/** Examples of the approvals routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
export const PENDING_APPROVAL_EXAMPLE: ApprovalDto = {
  id: 'apr_0193a6f8d2e47b1c8a9f3e5d7c6b4a21',
  org_id: 'org_0193a6f0a1b27c3d9e8f4a5b6c7d8e9f',
  status: 'pending',
  source: 'evaluate',
  intent_label: 'billing.refund',
  intent_card_id: null,
  tool_name: 'stripe.refunds.create',
  operation: null,
  summary: 'stripe.refunds.create as billing.refund for user u_4821',
  requested_by_key_id: 'key_0193a6f1b3c47d2e8f9a0b1c2d3e4f5a',
  user_id: 'u_4821',
  created_at: '2026-11-26T09:40:00.000Z',
  expires_at: '2026-11-26T09:55:00.000Z',
  decided_at: null,
  decided_by_key_id: null,
  reason: null,
  reason_code: 'approval_required',
  candidates: [],
  tool_call: { name: 'stripe.refunds.create', arguments: { charge: 'ch_3PqR8s2eZvKYlo2C1x9b', amount: 72000 } },
};

export const APPROVED_APPROVAL_EXAMPLE: ApprovalDto = {
  ...PENDING_APPROVAL_EXAMPLE,
  status: 'approved',
  decided_at: '2026-11-26T09:42:10.000Z',
  decided_by_key_id: 'key_0193a6f1c9d08e3f7a6b5c4d3e2f1a0b',
};

export const DENIED_APPROVAL_EXAMPLE: ApprovalDto = {
  ...PENDING_APPROVAL_EXAMPLE,
  status: 'denied',
  decided_at: '2026-11-26T09:42:10.000Z',
  decided_by_key_id: 'key_0193a6f1c9d08e3f7a6b5c4d3e2f1a0b',
  reason: 'Refunds above 500 EUR go through finance.',
};

/** A request the decision proxy queued for a mandate's call (an intent card's rule asked for approval). */
const PROXY_APPROVAL_EXAMPLE: ApprovalDto = {
  id: 'apr_0193a6fa07c35e2d9b8a1f4e6d5c3b2a',
  org_id: 'org_0193a6f0a1b27c3d9e8f4a5b6c7d8e9f',
  status: 'pending',
  source: 'mcp_proxy',
  intent_label: null,
  intent_card_id: 'card_0193a6f3e5d48c2b1a0f9e8d7c6b5a49',
  tool_name: null,
  operation: 'crm.refunds.create',
  summary: 'crm.refunds.create on mcp://crm/invoices/INV-1042 for user_7 (rule high-value-refund)',
  requested_by_key_id: 'key_0193a6f1b3c47d2e8f9a0b1c2d3e4f5a',
  user_id: 'user_7',
  created_at: '2026-11-26T09:47:30.000Z',
  expires_at: '2026-11-26T10:02:30.000Z',
  decided_at: null,
  decided_by_key_id: null,
  reason: null,
  reason_code: null,
  candidates: [],
  tool_call: null,
};

export const APPROVAL_LIST_EXAMPLE: ApprovalListDto = {
  data: [PROXY_APPROVAL_EXAMPLE, APPROVED_APPROVAL_EXAMPLE],
  next_cursor: 'eyJjcmVhdGVkX2F0IjoiMjAyNi0xMS0yNlQwOTo0MDowMC4wMDBaIiwiaWQiOiJhcHJfMDE5M2E2ZjhkMmU0N2IxYzhhOWYzZTVkN2M2YjRhMjEifQ',
};

export const DENY_APPROVAL_EXAMPLES: Record<string, { summary: string; value: DenyApprovalDto }> = {
  withReason: { summary: 'With a reason (kept on the request and in approval.denied)', value: { reason: 'Refunds above 500 EUR go through finance.' } },
  noReason: { summary: 'Without a reason (the body may also be left out)', value: {} },
};

/** The 400 answers of deny: the body's own refusals (one code, so the examples are named here). */
export const DENY_APPROVAL_400_EXAMPLES: Record<string, { summary: string; value: ErrorDto }> = {
  reasonTooLong: {
    summary: 'reason longer than 1000 characters',
    value: {
      code: 'invalid_request',
      message: 'reason must be shorter than or equal to 1000 characters',
      details: [{ path: 'reason', message: 'reason must be shorter than or equal to 1000 characters' }],
    },
  },
  unknownField: {
    summary: 'A field other than reason',
    value: { code: 'invalid_request', message: 'comment is not a known field', details: [{ path: 'comment', message: 'comment is not a known field' }] },
  },
};

/** The 409 answers of approve and deny: the request is no longer pending (one code, so the examples are named here). */
export const DECIDED_APPROVAL_409_EXAMPLES: Record<string, { summary: string; value: ErrorDto }> = {
  alreadyDecided: {
    summary: 'Already decided (also the loser of two concurrent decisions)',
    value: { code: 'invalid_transition', message: 'the approval request is approved; only a pending request can be decided' },
  },
  expired: {
    summary: 'Past expires_at',
    value: { code: 'invalid_transition', message: 'the approval request is expired; only a pending request can be decided' },
  },
};
