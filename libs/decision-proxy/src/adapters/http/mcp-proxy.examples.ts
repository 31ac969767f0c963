import type {
  DecisionDto,
  DecisionRecordDto,
  DecisionRecordListDto,
  ErrorDto,
  McpProxyCallDto,
  McpProxyCallResponseDto,
  ResolveReviewDto,
  ReviewDto,
  ReviewListDto,
} from '@igw/contracts';

/** Examples of the mcp-proxy routes in the OpenAPI document (typed, and checked against the schemas by the linter). */
type Named<T> = Record<string, { summary: string; value: T }>;

const MANDATE = { cred_id: 'cred_0193a6f4d2e87b1c9a4f5e6d7c8b9a01', prompt_id: 'prm_7f3c2a', intent_id: 'crm-support' };
const DECISION_ID = 'dec_0193a6f5e1c27d4b8a9f3e2d1c0b4a5e';

const answer = (decision: DecisionDto): McpProxyCallResponseDto => ({ decision, mandate: MANDATE });

export const PROXY_CALL_EXAMPLES: Named<McpProxyCallDto> = {
  read: {
    summary: 'Read one contact',
    value: {
      action: { surface: 'sdk', operation: 'crm.contacts.read', arguments: { contact_id: '42' }, target_resource: 'crm://contacts/42' },
      context: { actor: 'agent:support-bot', prompt_id: 'prm_7f3c2a' },
      audience: 'crm-api',
    },
  },
  minimal: { summary: 'An operation only', value: { action: { surface: 'sdk', operation: 'crm.contacts.search' }, audience: 'crm-api' } },
};

export const PROXY_ALLOW_EXAMPLES: Named<McpProxyCallResponseDto> = {
  allow: { summary: 'allow: in scope, no rule matched', value: answer({ kind: 'allow', decision_id: DECISION_ID }) },
  allow_approved: {
    summary: 'allow: an approved request spent',
    value: answer({ kind: 'allow', decision_id: DECISION_ID, rule_id: 'refund-needs-approval', approval_request_id: 'apr_0193a6f3b9d07e2c8f1a4b5c6d7e8f90' }),
  },
  allow_with_log_extra: {
    summary: 'allow_with_log_extra',
    value: answer({ kind: 'allow_with_log_extra', decision_id: DECISION_ID, rule_id: 'log-exports', log_fields: { ticket: 'SUP-1182' } }),
  },
  allow_with_redact: {
    summary: 'allow_with_redact',
    value: answer({ kind: 'allow_with_redact', decision_id: DECISION_ID, rule_id: 'hide-contact-pii', redact_fields: ['result.email', 'result.phone'] }),
  },
  allow_with_downgrade: {
    summary: 'allow_with_downgrade',
    value: answer({
      kind: 'allow_with_downgrade',
      decision_id: DECISION_ID,
      rule_id: 'cap-search-size',
      downgraded_action: { surface: 'sdk', operation: 'crm.contacts.search', arguments: { query: 'acme', limit: 20 } },
    }),
  },
  allow_with_shadow: {
    summary: 'allow_with_shadow: a deny let through in shadow mode',
    value: answer({
      kind: 'allow_with_shadow',
      decision_id: DECISION_ID,
      shadow_decision: { kind: 'deny', reason: 'forbidden_operation', message: 'operation crm.contacts.delete is forbidden by the intent' },
    }),
  },
};

export const PROXY_DEFERRED_EXAMPLES: Named<McpProxyCallResponseDto> = {
  defer: {
    summary: 'defer: proceed, queued for review',
    value: answer({ kind: 'defer', decision_id: DECISION_ID, rule_id: 'review-bulk-updates', review_id: 'rev_0193a6f6a2b38c4d9e0f1a2b3c4d5e6f' }),
  },
  negotiate: {
    summary: 'negotiate: an in-scope action suggested',
    value: answer({
      kind: 'negotiate',
      decision_id: DECISION_ID,
      suggested_action: { surface: 'sdk', operation: 'crm.contacts.read', arguments: { contact_id: '42' }, target_resource: 'crm://contacts/42' },
      message: "operation crm.contacts.export outside the mandate's scope; operation crm.contacts.read would be in scope",
    }),
  },
  substitute: {
    summary: 'substitute: another action instead',
    value: answer({
      kind: 'substitute',
      decision_id: DECISION_ID,
      rule_id: 'export-via-report',
      replacement_action: { surface: 'sdk', operation: 'crm.reports.create', arguments: { type: 'contacts' } },
    }),
  },
};

export const PROXY_BLOCKED_EXAMPLES: Named<McpProxyCallResponseDto> = {
  approval: {
    summary: 'approval: a person must approve, then repeat the identical call',
    value: answer({
      kind: 'approval',
      decision_id: DECISION_ID,
      rule_id: 'refund-needs-approval',
      approval_request_id: 'apr_0193a6f3b9d07e2c8f1a4b5c6d7e8f90',
    }),
  },
  step_up: {
    summary: 'step_up: a mandate with a stronger acr is needed',
    value: answer({ kind: 'step_up', decision_id: DECISION_ID, rule_id: 'mfa-for-refunds', required_acr: 'mfa' }),
  },
};

/** The 403 answers: a decision (deny, deny_with_reroute) or, before any decision, the mandate of another org. */
export const PROXY_DENIED_EXAMPLES: Named<McpProxyCallResponseDto | ErrorDto> = {
  deny_scope: {
    summary: 'deny scope_outside_intent',
    value: answer({
      kind: 'deny',
      decision_id: DECISION_ID,
      reason: 'scope_outside_intent',
      message: "operation billing.invoices.read outside the mandate's scope",
    }),
  },
  deny_forbidden: {
    summary: 'deny forbidden_operation',
    value: answer({
      kind: 'deny',
      decision_id: DECISION_ID,
      reason: 'forbidden_operation',
      message: 'operation crm.contacts.delete is forbidden by the intent',
    }),
  },
  deny_confused_deputy: {
    summary: 'deny confused_deputy',
    value: answer({ kind: 'deny', decision_id: DECISION_ID, reason: 'confused_deputy', message: "context.actor is not the mandate's subject" }),
  },
  deny_rule: {
    summary: 'deny by a card rule',
    value: answer({ kind: 'deny', decision_id: DECISION_ID, rule_id: 'block-bulk-export', reason: 'rule_denied', message: 'bulk exports are not allowed' }),
  },
  deny_rule_error: {
    summary: 'deny rule_error (fail closed)',
    value: answer({
      kind: 'deny',
      decision_id: DECISION_ID,
      rule_id: 'cap-search-size',
      reason: 'rule_error',
      message: 'rule cap-search-size could not be applied: condition failed: field not found: limit',
    }),
  },
  deny_with_reroute: {
    summary: 'deny_with_reroute',
    value: answer({
      kind: 'deny_with_reroute',
      decision_id: DECISION_ID,
      rule_id: 'billing-elsewhere',
      reroute_card_id: 'billing-support',
      message: 'refunds go through the billing-support card',
    }),
  },
  mandate_org_mismatch: {
    summary: 'mandate_org_mismatch (an error, no decision)',
    value: { code: 'mandate_org_mismatch', message: "the mandate's org is not the org of the API key" },
  },
};

const error = (code: string, message: string) => ({ summary: message, value: { code, message } });

const invalid = (path: string, message: string) => ({ summary: message, value: { code: 'invalid_request', message, details: [{ path, message }] } });

export const PROXY_INVALID_EXAMPLES: Named<ErrorDto> = {
  missing_operation: invalid('action.operation', 'action.operation is required'),
  missing_audience: invalid('audience', 'audience is required'),
  unknown_field: invalid('action.tool', 'action.tool is not a known field'),
  too_deep: invalid('action.arguments', 'action.arguments must not nest deeper than 64 levels'),
};

export const DECISION_LIST_INVALID_EXAMPLES: Named<ErrorDto> = {
  kind: invalid(
    'kind',
    'kind must be one of allow, allow_with_log_extra, allow_with_redact, allow_with_downgrade, allow_with_shadow, defer, negotiate, substitute, approval, step_up, deny, deny_with_reroute',
  ),
  since: invalid('since', 'since must be an ISO 8601 timestamp with a time zone (e.g. 2026-01-31T12:00:00Z) or a date'),
  range: invalid('until', 'until must be later than since'),
  limit: invalid('limit', 'limit must be an integer from 1 to 200'),
  include: invalid('include', 'include must be one of call'),
};

export const PROXY_UNAUTHENTICATED_EXAMPLES: Named<ErrorDto> = {
  mandate_missing: error(
    'mandate_invalid',
    'the X-Service-Mandate header is missing: send the mandate (the `credential` that POST /v1/mandate/dispense returned) in it',
  ),
  mandate_expired: error('mandate_invalid', 'the mandate has expired'),
  mandate_revoked: error('mandate_invalid', 'the mandate has been revoked'),
  mandate_audience: error('mandate_invalid', 'the mandate is not for this audience'),
  mandate_signature: error('mandate_invalid', 'the mandate signature does not verify'),
};

export const PROXY_UNAVAILABLE_EXAMPLES: Named<ErrorDto> = {
  jwks: error('unavailable', 'mandate issuer JWKS is unavailable; retry later'),
  version_board: error('unavailable', 'version board is unavailable; retry later'),
};

const RECORD: DecisionRecordDto = {
  decision_id: DECISION_ID,
  decision: { kind: 'allow_with_redact', decision_id: DECISION_ID, rule_id: 'hide-contact-pii', redact_fields: ['result.email', 'result.phone'] },
  cred_id: MANDATE.cred_id,
  intent_id: MANDATE.intent_id,
  prompt_id: MANDATE.prompt_id,
  actor: 'agent:support-bot',
  audience: 'crm-api',
  surface: 'sdk',
  operation: 'crm.contacts.read',
  target_resource: 'crm://contacts/42',
  arguments_sha256: '3f1d9c5b2e7a4b0c8d6e2f1a9b7c5d3e1f0a2b4c6d8e0f1a3b5c7d9e1f2a4b6c',
  requested_by_key_id: 'key_0193a6e1f0a27b3c8d9e4f5a6b7c8d9e',
  created_at: '2026-11-26T09:41:07.512Z',
};

export const DECISION_RECORD_EXAMPLE: DecisionRecordDto = RECORD;

export const DECISION_LIST_EXAMPLE: DecisionRecordListDto = {
  data: [
    RECORD,
    {
      ...RECORD,
      decision_id: 'dec_0193a6f5d0b16c3a7f8e2d1c0b9a3f4e',
      decision: {
        kind: 'deny',
        decision_id: 'dec_0193a6f5d0b16c3a7f8e2d1c0b9a3f4e',
        reason: 'forbidden_operation',
        message: 'operation crm.contacts.delete is forbidden by the intent',
      },
      operation: 'crm.contacts.delete',
      arguments_sha256: '9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
      created_at: '2026-11-26T09:40:58.031Z',
    },
  ],
  next_cursor: 'eyJ0IjoiMjAyNi0xMS0yNlQwOTo0MDo1OC4wMzFaIiwiaSI6ImRlY18wMTkzYTZmNWQwYjE2YzNhN2Y4ZTJkMWMwYjlhM2Y0ZSJ9',
};

const REVIEW_DECISION_ID = 'dec_0193a6f6a1f27b3c8d4e5f6a7b8c9d0e';
const PENDING_REVIEW: ReviewDto = {
  review_id: 'rev_0193a6f6a2b38c4d9e0f1a2b3c4d5e6f',
  status: 'pending',
  decision_id: REVIEW_DECISION_ID,
  decision: { kind: 'defer', decision_id: REVIEW_DECISION_ID, rule_id: 'review-bulk-updates', review_id: 'rev_0193a6f6a2b38c4d9e0f1a2b3c4d5e6f' },
  cred_id: MANDATE.cred_id,
  intent_id: MANDATE.intent_id,
  prompt_id: MANDATE.prompt_id,
  actor: 'agent:support-bot',
  audience: 'crm-api',
  surface: 'sdk',
  operation: 'crm.contacts.update',
  target_resource: 'crm://contacts/42',
  arguments_sha256: '5c4b3a2918f7e6d5c4b3a2918f7e6d5c4b3a2918f7e6d5c4b3a2918f7e6d5c4b',
  requested_by_key_id: 'key_0193a6e1f0a27b3c8d9e4f5a6b7c8d9e',
  created_at: '2026-11-26T09:45:12.204Z',
  reviewed_at: null,
  reviewed_by_key_id: null,
  note: null,
};

export const REVIEW_LIST_EXAMPLE: ReviewListDto = { data: [PENDING_REVIEW], next_cursor: null };

export const RESOLVE_REVIEW_EXAMPLES: Named<ResolveReviewDto> = {
  accept: { summary: 'Accept, with a note', value: { status: 'accepted', note: 'Checked with the account owner.' } },
  reject: { summary: 'Reject', value: { status: 'rejected' } },
};

export const RESOLVED_REVIEW_EXAMPLE: ReviewDto = {
  ...PENDING_REVIEW,
  status: 'accepted',
  reviewed_at: '2026-11-26T10:03:40.118Z',
  reviewed_by_key_id: 'key_0193a6e2c4d58e6f0a1b2c3d4e5f6a7b',
  note: 'Checked with the account owner.',
};
