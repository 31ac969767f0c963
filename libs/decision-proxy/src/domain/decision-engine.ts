import { prepareRuleConditionVars, type PreparedRuleConditionVars } from '@igw/rule-conditions';
import { compileScopeGlob, type ScopeGlob } from '@igw/scope-glob';
import { acrSatisfies, DEFAULT_ACR_LEVELS } from './acr';
import type { CompiledCard, CompiledScope, ScopePatterns } from './compiled-card';
import { isBlocking, type Decision, type DecisionStage, type EngineResult, type ProxyAction } from './decision';

/**
 * The pure decision engine of the mandate path (DESIGN 6.9, steps 5–9). Steps 1–4 (API key,
 * mandate verification, org match, card lookup) belong to the application, which hands over
 * verified claims and the compiled card. The engine reads no clock, draws no randomness and does
 * no I/O: the same input always gives the same result.
 *
 * Order:
 * 5. Confused deputy: the actor the context speaks for — `context.actor`, or when that is absent
 *    `context.on_behalf_of[0]` (or `on_behalf_of` itself when it is a string) — must be the
 *    mandate's `sub`, and `context.prompt_id`, when given, the mandate's `prompt_id`; else
 *    `deny confused_deputy`. An absent (undefined or null) field states nothing and is not checked;
 *    any other value that is not the mandate's (a number, an object) is a mismatch. A mandate
 *    bound to no prompt (no `prompt_id` claim, DESIGN 6.8) skips the prompt check.
 * 6. Scope. The effective scope is the mandate's scope intersected with the card's current
 *    allowed_scope: a card re-installed with a narrower scope or more forbidden operations binds
 *    mandates dispensed before (dispense already made the mandate a subset of the card, so this
 *    only ever narrows). An operation matched by a forbidden pattern of either → `deny
 *    forbidden_operation`. An operation outside either allow list, or a `target_resource` outside
 *    either resources list → `negotiate` with a suggested in-scope action when one exists (see
 *    suggestAction), else `deny scope_outside_intent`. An action without `target_resource` (the
 *    field is optional) names no resource and only its operation is checked. A scope pattern that
 *    is not a scope glob → `deny scope_invalid`.
 * 7. Card rules in order, first match wins. `when` is CEL over `action`, `context` (an absent
 *    context is `{}`) and `mandate` (the claims). A rule whose condition does not compile, fails
 *    while evaluating (e.g. `action.arguments.limit` on a call without `limit`; guard with
 *    `has()`), or whose matched decision is unusable, decides `deny rule_error` with its rule_id:
 *    fail closed. Skipping it would fail open — the broken rule may be the one that denies,
 *    redacts or asks for approval. `step_up {required_acr}`: when the mandate's `acr` meets the
 *    requirement (see acr.ts) the rule is satisfied and the action passes as `allow` with that
 *    rule_id (the rule matched, so later rules are not consulted: first match wins); otherwise
 *    `step_up` (428).
 * 8. Shadow: when the card or the mandate is in shadow and the decision is a blocking one
 *    (BLOCKING_KINDS, whatever step produced it) the answer is `allow_with_shadow` with
 *    `shadow_decision` = that decision; rule_id and stage stay those of the shadowed decision.
 *    Non-blocking decisions (allow_*, defer) are returned unchanged.
 * 9. Otherwise `allow`.
 *
 * Cost (a design note; the tests measure no time): a decision parses nothing. The card's globs
 * and CEL programs are compiled once per card version (compileCard / CompiledCardCache); the
 * mandate's globs go through @igw/scope-glob's compiled-glob cache (a mandate's patterns repeat across
 * its calls). The work per call is the two string compares of step 5, a linear glob test per
 * scope pattern (no backtracking), and the evaluation of the rules' planned CEL up to the first
 * match; the suggestion of step 6 scans the mandate's literal patterns once and runs only on the
 * out-of-scope path.
 */

/** The verified mandate claims (DESIGN 6.8). Extra claims are kept and visible to conditions. */
export interface MandateClaims {
  sub: string;
  org: string;
  intent_id: string;
  /** Absent (or null) when the mandate is bound to no prompt. */
  prompt_id?: string | null;
  aud: string | string[];
  scope: ScopePatterns;
  ctx?: Record<string, unknown>;
  acr?: string;
  jti: string;
  exp: number;
  [claim: string]: unknown;
}

export interface DecisionRequest {
  action: ProxyAction;
  context?: Record<string, unknown>;
  audience: string;
}

export interface DecisionInput {
  mandate: MandateClaims;
  card: CompiledCard;
  request: DecisionRequest;
  /** Whether the mandate is in shadow; defaults to mandateInShadow(mandate). */
  mandateShadow?: boolean;
}

export interface DecisionEngineOptions {
  /** Ordered acr levels, weakest first (default DEFAULT_ACR_LEVELS). */
  acrLevels?: readonly string[];
}

/** The mandate-level shadow flag: `ctx.shadow === true` (exactly true; "true" or 1 are not). */
export function mandateInShadow(mandate: Pick<MandateClaims, 'ctx'>): boolean {
  return mandate.ctx?.['shadow'] === true;
}

const absent = (v: unknown): boolean => v === undefined || v === null;

/** Why the context is not the mandate's, or null. */
export function confusedDeputy(mandate: Pick<MandateClaims, 'sub' | 'prompt_id'>, context: Record<string, unknown>): string | null {
  let actor: unknown = context['actor'];
  let from = 'context.actor';
  if (absent(actor)) {
    const chain = context['on_behalf_of'];
    if (Array.isArray(chain)) {
      actor = chain[0];
      from = 'context.on_behalf_of[0]';
    } else {
      actor = chain;
      from = 'context.on_behalf_of';
    }
  }
  if (!absent(actor) && actor !== mandate.sub) return `${from} is not the mandate's subject`;
  const promptId = context['prompt_id'];
  if (!absent(mandate.prompt_id) && !absent(promptId) && promptId !== mandate.prompt_id) return "context.prompt_id is not the mandate's prompt";
  return null;
}

/** The mandate's scope and the card's, each compiled; a value is in scope when both allow it. */
interface Scopes {
  mandate: CompiledScope;
  card: CompiledScope;
}

const anyMatch = (globs: readonly ScopeGlob[], value: string): boolean => {
  for (const g of globs) if (g.test(value)) return true;
  return false;
};
const opForbidden = (s: Scopes, op: string) => anyMatch(s.mandate.forbidden, op) || anyMatch(s.card.forbidden, op);
const opAllowed = (s: Scopes, op: string) => !opForbidden(s, op) && anyMatch(s.mandate.operations, op) && anyMatch(s.card.operations, op);
const resourceAllowed = (s: Scopes, r: string) => anyMatch(s.mandate.resources, r) && anyMatch(s.card.resources, r);

const segments = (v: string): string[] => v.split(/[./:]/);
/** How many leading segments two values share, counting only up to the first that differs. */
function sharedSegments(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * The closest in-scope literal: among the mandate's patterns without a wildcard (in the mandate's
 * order) that pass `inScope`, the one sharing the most leading segments with `value`; ties go to
 * the earliest. It must share at least the first segment and that segment must not be empty
 * (`crm.contacts.export` may become `crm.contacts.read`, never `billing.read`). Wildcard patterns
 * are not turned into values: an invented operation or resource would be a guess.
 */
function closestLiteral(value: string, patterns: readonly ScopeGlob[], inScope: (v: string) => boolean): string | null {
  let best: string | null = null;
  let bestShared = 0;
  for (const g of patterns) {
    if (!g.literal || g.pattern === value || !inScope(g.pattern)) continue;
    const shared = sharedSegments(value, g.pattern);
    if (shared === 0 || segments(value)[0] === '') continue;
    if (shared > bestShared) {
      best = g.pattern;
      bestShared = shared;
    }
  }
  return best;
}

/**
 * The in-scope variant offered with `negotiate`: the same action (surface and arguments kept)
 * with the operation replaced by its closest in-scope literal operation when it is out of scope,
 * and the target replaced by its closest in-scope literal resource when that is out of scope
 * (closestLiteral). Null when a part that must change has no such replacement.
 */
export function suggestAction(action: ProxyAction, s: Scopes, opOk: boolean, targetOk: boolean): ProxyAction | null {
  const operation = opOk ? action.operation : closestLiteral(action.operation, s.mandate.operations, (op) => opAllowed(s, op));
  if (operation === null) return null;
  const target = targetOk ? action.target_resource : closestLiteral(action.target_resource ?? '', s.mandate.resources, (r) => resourceAllowed(s, r));
  if (target === null) return null;
  const suggested: ProxyAction = { ...action, operation };
  if (target !== undefined) suggested.target_resource = target;
  return suggested;
}

function compileMandateScope(scope: ScopePatterns): CompiledScope {
  const list = (p: unknown, name: string) => {
    if (!Array.isArray(p)) throw new RangeError(`mandate scope.${name} must be a list of patterns`);
    return p.map((x) => compileScopeGlob(x as string));
  };
  return {
    operations: list(scope?.operations, 'operations'),
    resources: list(scope?.resources, 'resources'),
    forbidden: list(scope?.forbidden_operations, 'forbidden_operations'),
  };
}

/**
 * Compiled mandate scopes by scope object: the verifier hands out the same claims object for a
 * token it has verified before, so a mandate's globs are compiled once, not on every call.
 * Invalid scopes are not remembered (they throw each time, and fail the call closed).
 */
const mandateScopes = new WeakMap<object, CompiledScope>();
function mandateScopeOf(scope: ScopePatterns): CompiledScope {
  if (typeof scope !== 'object' || scope === null) return compileMandateScope(scope);
  let compiled = mandateScopes.get(scope);
  if (compiled === undefined) {
    compiled = compileMandateScope(scope);
    mandateScopes.set(scope, compiled);
  }
  return compiled;
}

const deny = (reason: string, message: string): Decision => ({ kind: 'deny', reason, message });

function scopeDecision(action: ProxyAction, mandate: MandateClaims, card: CompiledCard): Decision | null {
  let s: Scopes;
  try {
    if (card.scope === null) throw new RangeError(`card ${card.id} v${card.version}: ${card.scopeProblem ?? 'invalid scope'}`);
    s = { mandate: mandateScopeOf(mandate.scope), card: card.scope };
  } catch (err) {
    return deny('scope_invalid', `scope cannot be checked: ${err instanceof Error ? err.message : String(err)}`);
  }
  const op = action.operation;
  if (typeof op !== 'string' || op === '') return deny('scope_outside_intent', 'the action names no operation');
  if (opForbidden(s, op)) return deny('forbidden_operation', `operation ${op} is forbidden by the intent`);
  const target = action.target_resource;
  const opOk = opAllowed(s, op);
  const targetOk = target === undefined || (typeof target === 'string' && resourceAllowed(s, target));
  if (opOk && targetOk) return null;
  const outside = [opOk ? null : `operation ${op}`, targetOk ? null : `target ${String(target)}`].filter(Boolean).join(' and ');
  const suggested = typeof target === 'string' || target === undefined ? suggestAction(action, s, opOk, targetOk) : null;
  if (suggested === null) return deny('scope_outside_intent', `${outside} outside the mandate's scope`);
  const changes = [opOk ? null : `operation ${suggested.operation}`, targetOk ? null : `target ${suggested.target_resource}`].filter(Boolean).join(' and ');
  return { kind: 'negotiate', suggested_action: suggested, message: `${outside} outside the mandate's scope; ${changes} would be in scope` };
}

/**
 * Whether the mandate and the card could let `action` through on scope alone (not forbidden, the
 * operation and the target in both scopes); rules may still refuse it. An invalid scope is false.
 */
export function actionInScope(action: ProxyAction, mandate: MandateClaims, card: CompiledCard): boolean {
  return scopeDecision(action, mandate, card) === null;
}

interface Pending {
  decision: Decision;
  rule_id: string | null;
  stage: DecisionStage;
}

function ruleDecision(card: CompiledCard, vars: PreparedRuleConditionVars | null, mandate: MandateClaims, acrLevels: readonly string[]): Pending | null {
  if (vars === null) return null;
  for (const rule of card.rules) {
    const failed = (problem: string): Pending => ({
      decision: deny('rule_error', `rule ${rule.id} could not be applied: ${problem}`),
      rule_id: rule.id,
      stage: 'rule',
    });
    if (rule.condition === null) return failed(rule.conditionProblem ?? 'condition does not compile');
    let matched: boolean;
    try {
      matched = rule.condition(vars);
    } catch (err) {
      return failed(err instanceof Error ? err.message : String(err));
    }
    if (!matched) continue;
    if (!rule.outcome.ok) return failed(rule.outcome.problem);
    const decision = structuredClone(rule.outcome.decision);
    if (decision.kind === 'step_up' && acrSatisfies(mandate.acr, decision.required_acr, acrLevels)) {
      return { decision: { kind: 'allow' }, rule_id: rule.id, stage: 'rule' };
    }
    return { decision, rule_id: rule.id, stage: 'rule' };
  }
  return null;
}

const assignOf = (d: Decision): EngineResult['assign'] => (d.kind === 'defer' ? 'review_id' : d.kind === 'approval' ? 'approval_request_id' : null);

/** Decides one call (DESIGN 6.9 steps 5–9). Pure and deterministic. */
export function decide(input: DecisionInput, options: DecisionEngineOptions = {}): EngineResult {
  const { mandate, card, request } = input;
  const context = request.context ?? {};
  const action = request.action;
  const shadow = card.shadow || (input.mandateShadow ?? mandateInShadow(mandate));

  let pending: Pending;
  const deputy = confusedDeputy(mandate, context);
  if (deputy !== null) {
    pending = { decision: deny('confused_deputy', deputy), rule_id: null, stage: 'confused_deputy' };
  } else {
    const scoped = scopeDecision(action, mandate, card);
    if (scoped !== null) {
      pending = { decision: scoped, rule_id: null, stage: 'scope' };
    } else {
      // Converted to CEL values once for all the card's rules.
      const vars =
        card.rules.length > 0
          ? prepareRuleConditionVars({ action: action as unknown as Record<string, unknown>, context, mandate: mandate as Record<string, unknown> })
          : null;
      pending = ruleDecision(card, vars, mandate, options.acrLevels ?? DEFAULT_ACR_LEVELS) ?? { decision: { kind: 'allow' }, rule_id: null, stage: 'default' };
    }
  }

  if (shadow && isBlocking(pending.decision.kind)) {
    const decision: Decision = { kind: 'allow_with_shadow', shadow_decision: pending.decision };
    return { decision, rule_id: pending.rule_id, stage: pending.stage, assign: null };
  }
  return { decision: pending.decision, rule_id: pending.rule_id, stage: pending.stage, assign: assignOf(pending.decision) };
}
