import type {
  DispensedMandateDto,
  DispenseMandateDto,
  JwksDto,
  MandateViewDto,
  MandateViolationErrorDto,
  RefreshedMandateDto,
  RefreshMandateDto,
  RevokedMandateDto,
  RevokeMandateDto,
} from '@igw/contracts';

/** Examples of the mandate routes in the OpenAPI document (typed, and checked against the schemas by the linter). */

const CRED_ID = 'cred_0193a6f5e3f97c2d8a1b4c6d8e0f2a4b';
/** The key that signs the example mandate (its kid is the RFC 7638 thumbprint). */
const KID = 'MeCNANiKVRU8PGN6g6CFKjn6WXtnHWvLCqsFt7gx23M';

/** A mandate as dispense and refresh answer it: an RS256 JWS of type mandate+jwt, signed by KID. */
export const MANDATE_CREDENTIAL_EXAMPLE =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6Im1hbmRhdGUrand0Iiwia2lkIjoiTWVDTkFOaUtWUlU4UEdONmc2Q0ZLam42V1h0bkhXdkxDcXNGdDdneDIzTSJ9.' +
  'eyJpc3MiOiJpbnRlbnQtZ2F0ZXdheSIsInN1YiI6ImFnZW50OnN1cHBvcnQtYm90IiwiYXVkIjoiY3JtLWFwaSIsIm9yZyI6Im9yZ18wMTkzYTZmMGExYjI3YzNkOGU5ZjBhMWIyYzNkNGU1ZiIsImludGVudF9pZCI6ImNybS1hc3Npc3RhbnQiLCJwcm9tcHRfaWQiOiJwcm1fNDIiLCJzY29wZSI6eyJvcGVyYXRpb25zIjpbImNybS5yZWFkIiwiY3JtLnNlYXJjaCoiXSwicmVzb3VyY2VzIjpbImNybTovL2N1c3RvbWVycy8qIl0sImZvcmJpZGRlbl9vcGVyYXRpb25zIjpbImNybS5kZWxldGUqIl19LCJjdHgiOnt9LCJpYXQiOjE3OTU2ODYzMDAsIm5iZiI6MTc5NTY4NjMwMCwiZXhwIjoxNzk1Njg2NjAwLCJqdGkiOiJjcmVkXzAxOTNhNmY1ZTNmOTdjMmQ4YTFiNGM2ZDhlMGYyYTRiIn0.' +
  'kr1yTzAyyTRh53RttREoLG75GEHoKYFg8j55aRiogTLaK9sH-euS_lJIgL6-u64nYxTfxsGGZnWE47NxR7vcBDiJ3_8md2OZl7S2Lb2w6anVpwNvUccP-I_ooisQYT4KfPC93yM1LLfYXzWueiWLCUq0CMWa8FFy6l5mkuF4gaXioksFo5tKkfRv0zvqQOfxCTJ1Usq5MioXkJJ76mv9aLJL3n8RDQIBdJQVhN_D-QE5XiPrjbfciM7XmTEhTpOLjsQGyukW1X0NHEQx0_j2tBbND-HuHW6_SGgwpBAyyLT8fGrgrjTpjpIAyM-KdkhwTZySUgpY0Gn8KD3fD_7J0Q';

const REQUESTED_SCOPE = { operations: ['crm.read', 'crm.search*'], resources: ['crm://customers/*'] };
const GRANTED_SCOPE = { ...REQUESTED_SCOPE, forbidden_operations: ['crm.delete*'] };

export const DISPENSE_MANDATE_EXAMPLES: Record<string, { summary: string; value: DispenseMandateDto }> = {
  minimal: {
    summary: 'An actor, a card, a scope and an audience',
    value: { actor: 'agent:support-bot', intent_id: 'crm-assistant', requested_scope: REQUESTED_SCOPE, audience: 'crm-api' },
  },
  operations_only: {
    summary: 'Only operations: no resources (the mandate can touch none) and only the card forbidden operations',
    value: { actor: 'agent:support-bot', intent_id: 'crm-assistant', requested_scope: { operations: ['crm.read'] }, audience: 'crm-api' },
  },
  complete: {
    summary: 'Bound to a prompt, with a TTL, context and a Vault token',
    value: {
      actor: 'agent:support-bot',
      intent_id: 'crm-assistant',
      prompt_id: 'prm_42',
      requested_scope: REQUESTED_SCOPE,
      ttl_seconds: 300,
      audience: 'crm-api',
      context: { acr: 'urn:igw:acr:agent', ticket: 'SUP-1182' },
      broker_dispense: { kind: 'vault', vault_role: 'crm-reader' },
      classification_evidence: { intent_event_id: 'iev_0193a6f4d2e87a1b9c3d5e7f9a1b3c5d', confidence: 0.94 },
    },
  },
};

export const DISPENSED_MANDATE_EXAMPLE: DispensedMandateDto = {
  credential: MANDATE_CREDENTIAL_EXAMPLE,
  cred_id: CRED_ID,
  expires_at: '2026-11-26T09:50:00.000Z',
  ttl_seconds: 300,
};

export const DISPENSED_MANDATE_EXAMPLES: Record<string, { summary: string; value: DispensedMandateDto }> = {
  mandate: { summary: 'The mandate alone', value: DISPENSED_MANDATE_EXAMPLE },
  with_vault_token: {
    summary: 'With the Vault token the broker minted',
    value: {
      ...DISPENSED_MANDATE_EXAMPLE,
      broker_dispense: { kind: 'vault', result: { kind: 'minted', vault_token: 'hvs.CAESIJ2lV0q3mQz8dK4pX7rN1sT6yB9wE5uH0cF3gA8jLmZo', lease_duration: 300 } },
    },
  },
};

/** 403 mandate_violation as dispense words it: the first violation in `message`, all of them in `details`. */
export const MANDATE_VIOLATION_EXAMPLE: MandateViolationErrorDto = {
  code: 'mandate_violation',
  message:
    'requested mandate exceeds the intent card: requested_scope.operations[1] "crm.**" is outside the card\'s operations (it matches e.g. "crm.") (and 1 more)',
  suggested_scope: GRANTED_SCOPE,
  details: [
    {
      path: 'requested_scope.operations[1]',
      message: 'requested_scope.operations[1] "crm.**" is outside the card\'s operations (it matches e.g. "crm.")',
    },
    {
      path: 'requested_scope.resources[1]',
      message: 'requested_scope.resources[1] "crm://invoices/*" is outside the card\'s resources (it matches e.g. "crm://invoices/")',
    },
  ],
};

export const SCOPE_OUTSIDE_INTENT_EXAMPLE: MandateViolationErrorDto = {
  code: 'scope_outside_intent',
  message:
    'the mandate\'s scope is no longer inside the intent card: scope.operations[1] "crm.search*" is outside the card\'s operations (it matches e.g. "crm.search")',
  suggested_scope: { operations: ['crm.read'], resources: ['crm://customers/*'], forbidden_operations: ['crm.delete*'] },
  details: [{ path: 'scope.operations[1]', message: 'scope.operations[1] "crm.search*" is outside the card\'s operations (it matches e.g. "crm.search")' }],
};

export const REFRESH_MANDATE_EXAMPLES: Record<string, { summary: string; value: RefreshMandateDto }> = {
  default_ttl: { summary: 'The default TTL (300 s, clamped)', value: { cred_id: CRED_ID } },
  ttl: { summary: 'A TTL of its own', value: { cred_id: CRED_ID, ttl_seconds: 600 } },
};

export const REFRESHED_MANDATE_EXAMPLE: RefreshedMandateDto = {
  ...DISPENSED_MANDATE_EXAMPLE,
  expires_at: '2026-11-26T09:58:20.000Z',
  ttl_seconds: 600,
  refresh_count: 1,
};

export const REVOKE_MANDATE_EXAMPLES: Record<string, { summary: string; value: RevokeMandateDto }> = {
  plain: { summary: 'By cred_id', value: { cred_id: CRED_ID } },
  reason: { summary: 'With a reason, kept with the record', value: { cred_id: CRED_ID, reason: 'agent session ended' } },
};

const REVOKED: RevokedMandateDto = { cred_id: CRED_ID, status: 'revoked', revoked_at: '2026-11-26T09:47:31.204Z' };

export const REVOKED_MANDATE_EXAMPLES: Record<string, { summary: string; value: RevokedMandateDto }> = {
  revoked: { summary: 'Revoked (also the answer to a repeat)', value: REVOKED },
  broker_revoked: { summary: 'Its Vault token revoked too', value: { ...REVOKED, broker_revocation: { kind: 'vault', result: 'revoked' } } },
  broker_failed: { summary: 'Vault could not be reached: call revoke again', value: { ...REVOKED, broker_revocation: { kind: 'vault', result: 'failed' } } },
};

export const JWKS_EXAMPLE: JwksDto = {
  keys: [
    {
      kty: 'RSA',
      kid: KID,
      alg: 'RS256',
      use: 'sig',
      n: 'xHCJmcC0LWIRtcIaDvp3qK9qHmfjwuLGsdLxR2d9MEUPubTnbyL6DNWksmLXggKPHjT7vap1bWe6kS0r8Dr0MuQBO9QPb5JrqhtGMYH2DpG6JMuFglofvSHk9s0FDoqP4MnaY4SdHFTg6krbtgpLX4QTmdn5UYKGcBnkcj6QAw_1oewn0J4UIi9M59mX_97rdtUe8Ibpzv8B7jeCda-mtSAN9crRhIPJ314ekydMh_ATsqEiYKVmqVKsQYsZHqbnk6tnosbv_KI6VigYaXyXWHERvJp0ZhvXbGdaF2i_aWI356FaDldjvvzGVqnUnCU9ZArgVAMEbV17sMhFn0WqeQ',
      e: 'AQAB',
    },
  ],
};

export const MANDATE_VIEW_EXAMPLE: MandateViewDto = {
  cred_id: CRED_ID,
  actor: 'agent:support-bot',
  intent_id: 'crm-assistant',
  prompt_id: 'prm_42',
  audience: 'crm-api',
  scope: GRANTED_SCOPE,
  status: 'active',
  issued_at: '2026-11-26T09:45:00.000Z',
  expires_at: '2026-11-26T09:50:00.000Z',
  revoked_at: null,
  refresh_count: 0,
  broker: {
    kind: 'vault',
    vault_role: 'crm-reader',
    namespace: null,
    accessor: '0e9e354a-520f-df04-6867-ee81cae3d42d',
    token_type: 'service',
    lease_duration: 300,
    expires_at: '2026-11-26T09:50:00.412Z',
  },
  classification_evidence: { intent_event_id: 'iev_0193a6f4d2e87a1b9c3d5e7f9a1b3c5d', confidence: 0.94 },
};
