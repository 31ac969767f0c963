import type { ApprovalDto, ApprovalListDto, ApproveApprovalDto, DenyApprovalDto, ErrorDto } from '@igw/contracts';

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

/** An uncertain match (DESIGN 6.15) corrected by the operator: the grant is for the corrected intention, the candidate stays listed. */
export const CORRECTED_APPROVAL_EXAMPLE: ApprovalDto = {
  ...APPROVED_APPROVAL_EXAMPLE,
  intent_label: 'billing.refund_small',
  reason_code: 'uncertain_match',
  candidates: [
    { intent_label: 'billing.refund', intention_id: 'int_0193a6f2c4d58e1f0a9b8c7d6e5f4a3b', confidence: 0.62 },
    { intent_label: 'billing.refund_small', intention_id: 'int_0193a6f2d7e69f2a1b0c9d8e7f6a5b4c', confidence: 0.55 },
  ],
};

export const APPROVE_APPROVAL_EXAMPLES: Record<string, { summary: string; value: ApproveApprovalDto }> = {
  noBody: { summary: 'Just approve (the body may also be left out)', value: {} },
  remember: {
    summary: 'Approve and remember: calls like this one are this intention from now on (legacy path)',
    value: { remember: true, reason: 'Refunds to this customer are routine.' },
  },
  correct: {
    summary: 'Approve as another intention and remember (legacy path): the grant is for it',
    value: { intent_label: 'billing.refund_small', remember: true },
  },
};

export const DENY_APPROVAL_EXAMPLES: Record<string, { summary: string; value: DenyApprovalDto }> = {
  withReason: { summary: 'With a reason (kept on the request and in approval.denied)', value: { reason: 'Refunds above 500 EUR go through finance.' } },
  noReason: { summary: 'Without a reason (the body may also be left out)', value: {} },
  remember: {
    summary: 'Deny and remember (legacy path): calls like this one are never matched to the candidate intention',
    value: { reason: 'This is not a refund.', remember: true },
  },
};

const invalid = (path: string, message: string): ErrorDto => ({ code: 'invalid_request', message, details: [{ path, message }] });
const REMEMBER_WITHOUT_CALL =
  'remember applies only to requests of POST /v1/intent/evaluate that hold the evaluated call; this one is source mcp_proxy without a call';

/** The 400 answers of approve (one code, so the examples are named here). */
export const APPROVE_APPROVAL_400_EXAMPLES: Record<string, { summary: string; value: ErrorDto }> = {
  rememberOnMandatePath: {
    summary: 'remember or intent_label on a request that holds no evaluated call (the mandate path)',
    value: invalid('remember', REMEMBER_WITHOUT_CALL),
  },
  badIntentLabel: { summary: 'intent_label is not a label', value: invalid('intent_label', 'intent_label must match ^[a-z0-9][a-z0-9_.-]{0,62}$') },
  reasonTooLong: { summary: 'reason longer than 1000 characters', value: invalid('reason', 'reason must be shorter than or equal to 1000 characters') },
  unknownField: { summary: 'A field other than reason, remember and intent_label', value: invalid('comment', 'comment is not a known field') },
};

const INTENT_NOT_ACTIVE = 'intent_label billing.refund_tiny is not an active intention of this org';

/** The 404 answers of approve: no such request, or a correction naming no active intention. */
export const APPROVE_APPROVAL_404_EXAMPLES: Record<string, { summary: string; value: ErrorDto }> = {
  notFound: { summary: 'No such request in the org', value: { code: 'not_found', message: 'approval request not found' } },
  intentNotFound: {
    summary: 'intent_label names no active intention of the org',
    value: { ...invalid('intent_label', INTENT_NOT_ACTIVE), code: 'intent_not_found' },
  },
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
  rememberOnMandatePath: {
    summary: 'remember on a request that holds no evaluated call (the mandate path)',
    value: invalid('remember', REMEMBER_WITHOUT_CALL),
  },
  unknownField: {
    summary: 'A field other than reason and remember',
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
  decisionInProgress: {
    summary: 'remember: another decision with remember is storing what it teaches (retry shortly)',
    value: { code: 'decision_in_progress', message: 'another decision on this approval request is storing what it teaches; retry shortly' },
  },
  exampleLimit: {
    summary: 'remember: the intention holds its maximum of examples (the request stays pending)',
    value: { code: 'example_limit', message: 'intention billing.refund holds 2000 examples, its maximum' },
  },
};
