import { forbidden, throwIfInvalid, type ErrorDetail } from '@igw/kernel';
import { checkGlobCover, compileScopeGlob, globCovers, globsCover, scopeGlobProblem } from '@igw/scope-glob';

/**
 * The scope a mandate carries (DESIGN 6.8), in the shape of a card's `allowed_scope`: scope
 * globs (see `@igw/scope-glob`) for operations and resources, and the operations it
 * may never perform even when `operations` covers them.
 */
export interface MandateScope {
  operations: string[];
  resources: string[];
  forbidden_operations: string[];
}

/** What a dispense asks for: only `operations` is required; `resources` and `forbidden_operations` default to `[]`. */
export interface RequestedScope {
  operations: string[];
  resources?: string[] | null;
  forbidden_operations?: string[] | null;
}

/** Items per list, as for a card's scope. */
export const MANDATE_SCOPE_MAX_ITEMS = 200;

/**
 * The answer of the dispense check: either the scope to grant, or what is wrong and the largest
 * part of the request that the card allows.
 */
export type ScopeCheck = { ok: true; scope: MandateScope } | { ok: false; violations: ErrorDetail[]; suggested_scope: MandateScope };

const quote = (s: string) => JSON.stringify(s);
const unique = (items: Iterable<string>): string[] => [...new Set(items)];

/** 400 for a request that is not a scope at all (the DTO checks the same; in-process callers skip it). */
function checkShape(requested: RequestedScope, at: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const lists: [keyof RequestedScope, unknown, boolean][] = [
    ['operations', requested?.operations, true],
    ['resources', requested?.resources ?? [], false],
    ['forbidden_operations', requested?.forbidden_operations ?? [], false],
  ];
  for (const [key, list, required] of lists) {
    const path = `${at}.${key}`;
    if (!Array.isArray(list)) {
      details.push({ path, message: `${path} must be a list of patterns` });
    } else if (required && list.length === 0) {
      details.push({ path, message: `${path} must name at least one pattern` });
    } else if (list.length > MANDATE_SCOPE_MAX_ITEMS) {
      details.push({ path, message: `${path} must have at most ${MANDATE_SCOPE_MAX_ITEMS} items` });
    } else {
      list.forEach((pattern: unknown, i) => {
        const problem = scopeGlobProblem(pattern);
        if (problem) details.push({ path: `${path}[${i}]`, message: `${path}[${i}] ${problem}` });
      });
    }
  }
  return details;
}

const outside = (path: string, item: string, what: string, example: string | null) =>
  `${path} ${quote(item)} is outside the card's ${what}` + (example === null ? '' : ` (it matches e.g. ${quote(example)})`);

/**
 * Is the requested scope inside the card's allowed scope (DESIGN 6.8)?
 *
 * - Every requested operation must be covered by the card's `operations` (by their union: each
 *   value the requested pattern matches is matched by some card pattern), and must not be
 *   wholly forbidden (every value it matches is matched by the card's `forbidden_operations`).
 *   A requested glob that only partly overlaps a forbidden one is allowed: the granted scope
 *   keeps the card's `forbidden_operations`, so those operations stay refused at call time.
 * - Every requested resource must be covered by the card's `resources`.
 * - Granted: the requested operations and resources as asked (duplicates dropped, order kept),
 *   and `forbidden_operations` = the card's ∪ the requested ones.
 * - Empty `operations` are a 400 (`invalid_request`): a mandate that allows nothing is a
 *   mistake, and "empty means the whole card" would grant what nobody named. `resources` and
 *   `forbidden_operations` may be absent or empty (`[]`): a mandate with no resources can touch
 *   none.
 *
 * On a violation, `suggested_scope` is the largest part of the request the card allows, built
 * item by item: an allowed item is kept as asked; a requested glob the card does not wholly
 * allow is narrowed to the card's own patterns that lie inside it (request `crm.**`, card
 * `crm.contacts.*` → `crm.contacts.*`) minus those the card wholly forbids; anything else is
 * dropped, including partial overlaps that no card pattern fits inside (request `crm.*.read`,
 * card `crm.contacts.*`: their overlap `crm.contacts.read` is not suggested). Lists may come
 * out empty. `forbidden_operations` is the card's ∪ the requested ones, as when granted.
 */
export function checkRequestedScope(card: MandateScope, requested: RequestedScope): ScopeCheck {
  return checkScopeAt(card, requested, 'requested_scope');
}

/** `at` names the checked scope in messages and detail paths. */
function checkScopeAt(card: MandateScope, asked: RequestedScope, at: string): ScopeCheck {
  throwIfInvalid(checkShape(asked, at));
  const requested: MandateScope = {
    operations: asked.operations,
    resources: asked.resources ?? [],
    forbidden_operations: asked.forbidden_operations ?? [],
  };

  const violations: ErrorDetail[] = [];
  const forbiddenByCard = (op: string) => card.forbidden_operations.length > 0 && globsCover(card.forbidden_operations, op);
  const allowedFor = (key: 'operations' | 'resources', what: string): string[] => {
    const cardPatterns = card[key];
    const suggested: string[] = [];
    unique(requested[key]).forEach((item) => {
      const path = `${at}.${key}[${requested[key].indexOf(item)}]`;
      const cover = checkGlobCover(cardPatterns, item);
      if (!cover.covered) {
        violations.push({ path, message: outside(path, item, what, cover.example) });
        // Narrow to the card's patterns inside the request; a literal contains no pattern but
        // itself, and that one would have covered it.
        if (compileScopeGlob(item).literal) return;
        for (const pattern of cardPatterns) {
          if (globCovers(item, pattern) && !(key === 'operations' && forbiddenByCard(pattern))) suggested.push(pattern);
        }
      } else if (key === 'operations' && forbiddenByCard(item)) {
        violations.push({ path, message: `${path} ${quote(item)} is forbidden by the card` });
      } else {
        suggested.push(item);
      }
    });
    return unique(suggested);
  };
  const operations = allowedFor('operations', 'operations');
  const resources = allowedFor('resources', 'resources');
  const scope: MandateScope = {
    operations,
    resources,
    forbidden_operations: unique([...card.forbidden_operations, ...requested.forbidden_operations]),
  };
  return violations.length === 0 ? { ok: true, scope } : { ok: false, violations, suggested_scope: scope };
}

const summary = (violations: ErrorDetail[]) => (violations[0]?.message ?? '') + (violations.length > 1 ? ` (and ${violations.length - 1} more)` : '');

/**
 * The scope to grant, or 403 `mandate_violation` with `suggested_scope` and `details` (one per
 * offending item), or 400 `invalid_request` for a malformed request.
 */
export function grantScope(card: MandateScope, requested: RequestedScope): MandateScope {
  const check = checkRequestedScope(card, requested);
  if (check.ok) return check.scope;
  throw forbidden('mandate_violation', `requested scope exceeds the intent card: ${summary(check.violations)}`, {
    suggested_scope: check.suggested_scope,
    details: check.violations,
  });
}

/**
 * On refresh, the scope a mandate already carries against the card as it is now (it may have
 * been narrowed since dispense): the scope with the card's current `forbidden_operations`
 * added, or 403 `scope_outside_intent` (DESIGN 6.2) with `suggested_scope` and `details`.
 */
export function recheckScope(card: MandateScope, scope: MandateScope): MandateScope {
  const check = checkScopeAt(card, scope, 'scope');
  if (check.ok) return check.scope;
  throw forbidden('scope_outside_intent', `the mandate's scope is no longer inside the intent card: ${summary(check.violations)}`, {
    suggested_scope: check.suggested_scope,
    details: check.violations,
  });
}
