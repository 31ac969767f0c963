import type {
  ApiKeyDto,
  ApiKeyListDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  CreatedOrgDto,
  CreateOrgDto,
  HealthDto,
  OrgDto,
  StatsDto,
  UpdateOrgDto,
} from '@igw/contracts';
import { statsBuckets } from '@igw/kernel';

/** Examples of the orgs, api-keys and health routes in the OpenAPI document (typed, and checked against the schemas by the linter). */

type Named<T> = Record<string, { summary: string; value: T }>;

// ── orgs ────────────────────────────────────────────────────────────────────────────────────────

export const CREATE_ORG_EXAMPLES: Named<CreateOrgDto> = {
  minimal: { summary: 'A name; the deployment default rate limit applies', value: { name: 'acme' } },
  rate_limit: { summary: 'With its own per-key rate limit', value: { name: 'acme', rate_limit: { requests_per_second: 50, burst: 100 } } },
};

export const ORG_EXAMPLE: OrgDto = {
  id: 'org_0193a6e4b7c25d8f9e1a2b3c4d5e6f70',
  name: 'acme',
  rate_limit: { requests_per_second: 100, burst: 200 },
  created_at: '2026-11-26T09:00:00.000Z',
};

/** The org's first admin key, as listed (the secret is only in the answer that created it). */
const FIRST_ADMIN_KEY: ApiKeyDto = {
  id: 'key_0193a6e4b7c37a1e8d2f4b6c8e0a1c3d',
  name: 'admin',
  scope: 'admin',
  prefix: 'igw_7Kq2VfX9',
  created_at: '2026-11-26T09:00:00.000Z',
  revoked_at: null,
};

export const CREATED_ORG_EXAMPLE: CreatedOrgDto = {
  org: ORG_EXAMPLE,
  api_key: { ...FIRST_ADMIN_KEY, key: 'igw_7Kq2VfX9mTcR4nLpW8sYhD3jG6bZ1aEu1Yvipe' },
};

export const UPDATE_ORG_EXAMPLES: Named<UpdateOrgDto> = {
  set: { summary: 'Set a per-key rate limit', value: { rate_limit: { requests_per_second: 50, burst: 100 } } },
  reset: { summary: 'Restore the deployment default', value: { rate_limit: null } },
};

export const UPDATED_ORG_EXAMPLE: OrgDto = { ...ORG_EXAMPLE, rate_limit: { requests_per_second: 50, burst: 100 } };

// ── api-keys ────────────────────────────────────────────────────────────────────────────────────

export const CREATE_API_KEY_EXAMPLES: Named<CreateApiKeyDto> = {
  read_only: { summary: 'A key that can only read', value: { name: 'dashboards', scope: 'read_only' } },
  policy_write: { summary: 'A key for a CI job that publishes policy', value: { name: 'ci-bot', scope: 'policy_write' } },
};

export const API_KEY_EXAMPLE: ApiKeyDto = {
  id: 'key_0193a6f0a1b24c3d8e5f6a7b8c9d0e1f',
  name: 'ci-bot',
  scope: 'policy_write',
  prefix: 'igw_Qm4Tz8Rw',
  created_at: '2026-11-26T09:20:00.000Z',
  revoked_at: null,
};

export const CREATED_API_KEY_EXAMPLE: CreatedApiKeyDto = { ...API_KEY_EXAMPLE, key: 'igw_Qm4Tz8Rw2Yx6Pb9Nc3Vd7Lf5Hg1Jk0Sa3JrdJu' };

export const REVOKED_API_KEY_EXAMPLE: ApiKeyDto = { ...API_KEY_EXAMPLE, revoked_at: '2026-11-26T12:45:10.000Z' };

export const API_KEY_LIST_EXAMPLE: ApiKeyListDto = {
  data: [FIRST_ADMIN_KEY, REVOKED_API_KEY_EXAMPLE],
};

// ── health ──────────────────────────────────────────────────────────────────────────────────────

export const HEALTH_OK_EXAMPLE: HealthDto = {
  status: 'ok',
  version: '0.6.0',
  mode: 'embedded',
  checks: { database: 'ok', events: 'ok', cache: 'ok', read_models: 'ok', records: 'ok' },
  details: { records: { set_aside: 0, oldest_unpublished_event_s: 0.004 } },
};

export const HEALTH_WARN_EXAMPLE: HealthDto = {
  status: 'degraded',
  version: '0.6.0',
  mode: 'embedded',
  checks: { database: 'ok', events: 'ok', cache: 'ok', read_models: 'ok', records: 'warn' },
  details: { records: { set_aside: 2, set_aside_by_schema: { decision_proxy: 2 }, oldest_unpublished_event_s: 0.004 } },
};

export const HEALTH_DOWN_EXAMPLE: HealthDto = {
  status: 'degraded',
  version: '0.6.0',
  mode: 'distributed',
  checks: {
    database: 'ok',
    events: 'ok',
    cache: 'ok',
    records: 'ok',
    policy_registry: 'ok',
    approvals: 'ok',
    intent_evaluator: 'ok',
    mandate_issuer: 'ok',
    decision_proxy: 'down',
    webhook_dispatcher: 'ok',
  },
  details: { records: { set_aside: 0, oldest_unpublished_event_s: 0.011 } },
};

const STATS_AT = new Date('2026-11-26T12:00:30.000Z');
/** A quiet hour: a few evaluations a minute, one pending approval, the odd denied call. */
const line = (f: (i: number) => number) => Array.from({ length: 60 }, (_, i) => f(i));
export const STATS_EXAMPLE: StatsDto = {
  window: '1h',
  bucket_seconds: 60,
  buckets: statsBuckets('1h', STATS_AT).map((b) => b.toISOString()),
  generated_at: STATS_AT.toISOString(),
  evaluations: {
    total: 218,
    by_outcome: { allowed: 180, denied: 30, pending_approval: 8 },
    series: { allowed: line(() => 3), denied: line((i) => (i % 2 === 0 ? 1 : 0)), pending_approval: line((i) => (i % 15 === 0 ? 2 : 0)) },
  },
  decisions: { total: 60, by_kind: { allow: 60 }, series: { allow: line(() => 1) } },
  approvals: { pending: 1, oldest_pending_age_seconds: 312 },
  auto_decided: { share: 210 / 218, automatic: 210, human: 8 },
  top_refused_tools: [{ tool: 'crm.contacts.delete', count: 30 }],
  intentions: [{ intent_label: 'crm.contact_lookup', count: 188 }],
  cards: [{ card_id: 'crm-card', count: 60 }],
};
