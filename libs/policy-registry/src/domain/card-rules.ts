import { DECISION_KINDS, type ErrorDetail } from '@igw/kernel';
import { scopeGlobProblem } from '@igw/scope-glob';
import { checkRuleCondition } from './cel-condition';
import type { CardContent, CardRule, CardScope } from './intent-card';

export { checkRuleCondition } from './cel-condition';

/** The twelve decision kinds (DESIGN 6.9), shared with the public contract through the kernel. */
export const RULE_DECISION_KINDS = DECISION_KINDS;

export const MAX_CARD_TTL_SECONDS = 3600;
const RULE_ID = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
const isNonEmptyStringList = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every(isNonEmptyString);

/**
 * What a rule's decision must carry, per kind, to be usable when it fires. Kinds whose extra
 * fields are produced at decision time (defer's review_id, approval's approval_request_id,
 * allow_with_shadow's shadow_decision) need nothing at install.
 */
const REQUIRED_FIELDS: Record<string, { field: string; valid: (v: unknown) => boolean; what: string }> = {
  substitute: { field: 'replacement_action', valid: isObject, what: 'an object' },
  deny_with_reroute: { field: 'reroute_card_id', valid: (v) => typeof v === 'string' && RULE_ID.test(v), what: 'an intent card id' },
  step_up: { field: 'required_acr', valid: isNonEmptyString, what: 'a non-empty string' },
  allow_with_redact: { field: 'redact_fields', valid: isNonEmptyStringList, what: 'a non-empty list of field names' },
  allow_with_downgrade: { field: 'downgraded_action', valid: isObject, what: 'an object' },
  negotiate: { field: 'suggested_action', valid: isObject, what: 'an object' },
  allow_with_log_extra: { field: 'log_fields', valid: isObject, what: 'an object' },
};

/** Problems with one rule's decision: a known kind and the fields that kind needs. */
export function checkDecision(decision: unknown, path: string): ErrorDetail[] {
  if (!isObject(decision)) return [{ path, message: `${path} must be an object` }];
  const d = decision as Record<string, unknown>;
  const kind = d['kind'];
  if (typeof kind !== 'string' || !(RULE_DECISION_KINDS as readonly string[]).includes(kind)) {
    return [{ path: `${path}.kind`, message: `${path}.kind must be one of ${RULE_DECISION_KINDS.join(', ')}` }];
  }
  const required = REQUIRED_FIELDS[kind];
  if (required && !required.valid(d[required.field])) {
    const fieldPath = `${path}.${required.field}`;
    return [{ path: fieldPath, message: `${fieldPath} is required for kind ${kind} and must be ${required.what}` }];
  }
  return [];
}

/** Ordered rules: unique ids, conditions that parse and type-check, complete decisions. */
export function checkRules(rules: CardRule[], path = 'rules'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  rules.forEach((rule, i) => {
    const at = `${path}[${i}]`;
    if (typeof rule.id !== 'string' || !RULE_ID.test(rule.id)) {
      details.push({ path: `${at}.id`, message: `${at}.id must match ${RULE_ID.source}` });
    } else if (seen.has(rule.id)) {
      details.push({ path: `${at}.id`, message: `${at}.id "${rule.id}" is already used by ${path}[${seen.get(rule.id)}]` });
    } else {
      seen.set(rule.id, i);
    }
    if (typeof rule.when !== 'string' || rule.when.trim() === '') {
      details.push({ path: `${at}.when`, message: `${at}.when must be a CEL expression` });
    } else {
      const problem = checkRuleCondition(rule.when);
      if (problem) details.push({ path: `${at}.when`, message: `${at}.when is not a valid condition: ${problem}` });
    }
    details.push(...checkDecision(rule.decision, `${at}.decision`));
  });
  return details;
}

/**
 * Scope patterns are the kernel's scope globs — `*` (any run within one `.` `/` `:` segment)
 * and `**` (any run) — the language mandates are issued and enforced with. Characters other glob
 * dialects treat as wildcards (`?`, classes, braces, escapes) are refused rather than taken
 * literally, so a pattern never means less than its author thought (a forbidden `crm.delet?`
 * would otherwise forbid nothing).
 */
export function globProblem(pattern: unknown): string | null {
  const problem = scopeGlobProblem(pattern);
  if (problem) return problem;
  const text = pattern as string;
  if (/\s/.test(text)) return 'must not contain whitespace';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'must not contain control characters';
  const bad = text.match(/[?[\]{}\\]/);
  if (bad) return `must use only * and ** as wildcards (found ${bad[0]})`;
  return null;
}

export function checkScope(scope: CardScope, path = 'allowed_scope'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const key of ['operations', 'resources', 'forbidden_operations'] as const) {
    const list = scope[key];
    if (!Array.isArray(list)) {
      details.push({ path: `${path}.${key}`, message: `${path}.${key} must be a list of patterns` });
      continue;
    }
    list.forEach((pattern, i) => {
      const problem = globProblem(pattern);
      if (problem) details.push({ path: `${path}.${key}[${i}]`, message: `${path}.${key}[${i}] ${problem}` });
    });
  }
  return details;
}

/** Everything that makes a card installable; an empty list means it is. */
export function checkCard(card: CardContent): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (!RULE_ID.test(card.id)) details.push({ path: 'id', message: `id must match ${RULE_ID.source}` });
  if (card.name.trim() === '') details.push({ path: 'name', message: 'name must not be empty' });
  details.push(...checkScope(card.allowedScope));
  if (card.audiences.length === 0) details.push({ path: 'audiences', message: 'audiences must name at least one audience' });
  if (!Number.isInteger(card.maxTtlSeconds) || card.maxTtlSeconds < 1 || card.maxTtlSeconds > MAX_CARD_TTL_SECONDS) {
    details.push({ path: 'max_ttl_seconds', message: `max_ttl_seconds must be an integer from 1 to ${MAX_CARD_TTL_SECONDS}` });
  }
  details.push(...checkRules(card.rules));
  return details;
}
