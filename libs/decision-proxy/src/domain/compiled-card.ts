import { BoundedMap, DECISION_KINDS, type DecisionKind } from '@igw/kernel';
import { compileRuleCondition, type CompiledRuleCondition } from '@igw/rule-conditions';
import { compileScopeGlob, type ScopeGlob } from '@igw/scope-glob';
import type { Decision } from './decision';

/** A card rule as installed (the contracts' CardRule). */
export interface DecisionCardRule {
  id: string;
  when: string;
  decision: { kind: DecisionKind } & Record<string, unknown>;
}

export interface ScopePatterns {
  operations: string[];
  resources: string[];
  forbidden_operations: string[];
}

/** What the engine reads of an intent card: a structural subset of the contracts' IntentCardEventV1. */
export interface DecisionCard {
  id: string;
  version: number;
  allowed_scope: ScopePatterns;
  shadow: boolean;
  rules: DecisionCardRule[];
}

/** A rule's decision made ready at compile time, or why it cannot be used. */
export type RuleOutcome = { ok: true; decision: Decision } | { ok: false; problem: string };

export interface CompiledRule {
  readonly id: string;
  /** Null when the condition does not compile; reaching the rule then fails closed. */
  readonly condition: CompiledRuleCondition | null;
  readonly conditionProblem: string | null;
  readonly outcome: RuleOutcome;
}

export interface CompiledScope {
  readonly operations: readonly ScopeGlob[];
  readonly resources: readonly ScopeGlob[];
  readonly forbidden: readonly ScopeGlob[];
}

/**
 * A card ready for decisions: its scope globs compiled and its rules' conditions planned and
 * decisions materialized, once per card version. Deciding then parses nothing. A card whose
 * scope has an invalid pattern keeps `scopeProblem` and every decision on it is a deny
 * (`scope_invalid`): a broken allow list or forbidden list must neither widen nor be ignored.
 */
export interface CompiledCard {
  readonly id: string;
  readonly version: number;
  readonly shadow: boolean;
  readonly scope: CompiledScope | null;
  readonly scopeProblem: string | null;
  readonly rules: readonly CompiledRule[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const text = (v: unknown, fallback: string): string => (isText(v) ? v : fallback);

/**
 * The decision a rule gives when it matches: exactly the fields of its kind (DESIGN 6.9), nothing
 * else from the rule. Ids created at decision time (review, approval request) are null here.
 */
export function materializeRuleDecision(ruleId: string, d: Record<string, unknown>, nested = false): RuleOutcome {
  const kind = d['kind'];
  const missing = (field: string, what: string): RuleOutcome => ({ ok: false, problem: `decision.${field} must be ${what} for kind ${String(kind)}` });
  switch (kind) {
    case 'allow':
      return { ok: true, decision: { kind } };
    case 'allow_with_log_extra':
      return isObject(d['log_fields']) ? { ok: true, decision: { kind, log_fields: structuredClone(d['log_fields']) } } : missing('log_fields', 'an object');
    case 'allow_with_redact': {
      const fields = d['redact_fields'];
      return Array.isArray(fields) && fields.length > 0 && fields.every(isText)
        ? { ok: true, decision: { kind, redact_fields: [...(fields as string[])] } }
        : missing('redact_fields', 'a non-empty list of field names');
    }
    case 'allow_with_downgrade':
      return isObject(d['downgraded_action'])
        ? { ok: true, decision: { kind, downgraded_action: structuredClone(d['downgraded_action']) } }
        : missing('downgraded_action', 'an object');
    case 'allow_with_shadow': {
      // A rule may itself say "let it through, marked shadow": what would have applied is its
      // own shadow_decision when it gives a usable one, else a plain allow.
      if (nested) return { ok: false, problem: 'a shadow_decision cannot itself be allow_with_shadow' };
      const inner = d['shadow_decision'];
      if (inner === undefined || inner === null) return { ok: true, decision: { kind, shadow_decision: { kind: 'allow' } } };
      if (!isObject(inner)) return missing('shadow_decision', 'a decision object');
      const shadowed = materializeRuleDecision(ruleId, inner, true);
      return shadowed.ok ? { ok: true, decision: { kind, shadow_decision: shadowed.decision } } : shadowed;
    }
    case 'defer':
      return { ok: true, decision: { kind, review_id: null } };
    case 'negotiate':
      return isObject(d['suggested_action'])
        ? {
            ok: true,
            decision: {
              kind,
              suggested_action: structuredClone(d['suggested_action']),
              message: text(d['message'], `rule ${ruleId} suggests a different request`),
            },
          }
        : missing('suggested_action', 'an object');
    case 'substitute':
      return isObject(d['replacement_action'])
        ? { ok: true, decision: { kind, replacement_action: structuredClone(d['replacement_action']) } }
        : missing('replacement_action', 'an object');
    case 'approval':
      return { ok: true, decision: { kind, approval_request_id: null } };
    case 'step_up':
      return isText(d['required_acr']) ? { ok: true, decision: { kind, required_acr: d['required_acr'] } } : missing('required_acr', 'a non-empty string');
    case 'deny':
      return { ok: true, decision: { kind, reason: text(d['reason'], 'rule_denied'), message: text(d['message'], `denied by rule ${ruleId}`) } };
    case 'deny_with_reroute':
      return isText(d['reroute_card_id'])
        ? {
            ok: true,
            decision: { kind, reroute_card_id: d['reroute_card_id'], message: text(d['message'], `use intent card ${d['reroute_card_id']} for this action`) },
          }
        : missing('reroute_card_id', 'an intent card id');
    default:
      return { ok: false, problem: `decision.kind must be one of ${DECISION_KINDS.join(', ')}` };
  }
}

function compileRule(rule: DecisionCardRule): CompiledRule {
  let condition: CompiledRuleCondition | null = null;
  let conditionProblem: string | null = null;
  try {
    if (typeof rule.when !== 'string') throw new Error('when must be a CEL expression');
    condition = compileRuleCondition(rule.when);
  } catch (err) {
    conditionProblem = err instanceof Error ? err.message : String(err);
  }
  const outcome = isObject(rule.decision) ? materializeRuleDecision(rule.id, rule.decision) : ({ ok: false, problem: 'decision must be an object' } as const);
  return { id: rule.id, condition, conditionProblem, outcome };
}

function compileScope(scope: ScopePatterns): CompiledScope {
  const list = (patterns: unknown, name: string): ScopeGlob[] => {
    if (!Array.isArray(patterns)) throw new RangeError(`allowed_scope.${name} must be a list of patterns`);
    return patterns.map((p) => compileScopeGlob(p as string));
  };
  return {
    operations: list(scope.operations, 'operations'),
    resources: list(scope.resources, 'resources'),
    forbidden: list(scope.forbidden_operations, 'forbidden_operations'),
  };
}

/** Compiles a card (pure: the same card always compiles to an equivalent result). */
export function compileCard(card: DecisionCard): CompiledCard {
  let scope: CompiledScope | null = null;
  let scopeProblem: string | null = null;
  try {
    scope = compileScope(card.allowed_scope ?? ({} as ScopePatterns));
  } catch (err) {
    scopeProblem = err instanceof Error ? err.message : String(err);
  }
  return { id: card.id, version: card.version, shadow: card.shadow === true, scope, scopeProblem, rules: (card.rules ?? []).map(compileRule) };
}

/**
 * Compiled cards by organisation, card id and version, bounded (the oldest entry goes first).
 * Card ids are unique per organisation only, hence the organisation in the key. An entry is
 * reused only for the very content it was compiled from: a card removed and installed again
 * under its id may come back with a version it had before and other rules, and must never be
 * decided with the old ones.
 */
export class CompiledCardCache {
  private readonly entries: BoundedMap<string, { source: string; compiled: CompiledCard }>;

  constructor(capacity = 1000) {
    this.entries = new BoundedMap(capacity);
  }

  get(org: string, card: DecisionCard): CompiledCard {
    const key = `${org}\u0000${card.id}@${card.version}`;
    // What compileCard reads, as text: compared on a hit (loads and events only, never per call).
    const source = JSON.stringify([card.allowed_scope ?? null, card.shadow === true, card.rules ?? []]);
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.source === source) return entry.compiled;
    const compiled = compileCard(card);
    this.entries.set(key, { source, compiled });
    return compiled;
  }

  get size(): number {
    return this.entries.size;
  }
}
