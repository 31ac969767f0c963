import { AppError } from '@igw/kernel';
import { matchesAnyGlob } from '@igw/scope-glob';
import { failureOf } from '@igw/testing/unit';
import { checkRequestedScope, grantScope, MANDATE_SCOPE_MAX_ITEMS, recheckScope, type MandateScope, type RequestedScope } from './mandate-scope';

const card: MandateScope = {
  operations: ['crm.contacts.*', 'crm.deals.read', 'crm.search*'],
  resources: ['crm://contacts/**', 'crm://deals/*'],
  forbidden_operations: ['crm.contacts.delete*'],
};

const failure = (fn: () => unknown): AppError => failureOf(fn, AppError);

describe('checkRequestedScope: inside the card', () => {
  it('grants a request inside the card as asked, keeping the card forbidden operations', () => {
    const requested: RequestedScope = { operations: ['crm.contacts.read', 'crm.search_all'], resources: ['crm://contacts/42'] };
    expect(checkRequestedScope(card, requested)).toEqual({
      ok: true,
      scope: { operations: ['crm.contacts.read', 'crm.search_all'], resources: ['crm://contacts/42'], forbidden_operations: ['crm.contacts.delete*'] },
    });
  });

  it('accepts requested globs the card covers', () => {
    const check = checkRequestedScope(card, { operations: ['crm.contacts.re*', 'crm.search'], resources: ['crm://contacts/*/notes', 'crm://deals/*'] });
    expect(check.ok).toBe(true);
  });

  it('accepts the card scope itself', () => {
    expect(checkRequestedScope(card, card)).toEqual({ ok: true, scope: card });
  });

  it('accepts a glob that only partly overlaps a forbidden operation: the forbidden list goes along', () => {
    const check = checkRequestedScope(card, { operations: ['crm.contacts.*'], resources: ['crm://contacts/1'] });
    expect(check).toEqual({
      ok: true,
      scope: { operations: ['crm.contacts.*'], resources: ['crm://contacts/1'], forbidden_operations: ['crm.contacts.delete*'] },
    });
  });

  it('unions the requested forbidden operations with the card ones, without duplicates', () => {
    const check = checkRequestedScope(card, {
      operations: ['crm.contacts.read'],
      resources: ['crm://contacts/1'],
      forbidden_operations: ['crm.contacts.export', 'crm.contacts.delete*'],
    });
    expect(check.ok && check.scope.forbidden_operations).toEqual(['crm.contacts.delete*', 'crm.contacts.export']);
  });

  it('drops duplicate requested items, keeping the first position', () => {
    const check = checkRequestedScope(card, {
      operations: ['crm.deals.read', 'crm.contacts.read', 'crm.deals.read'],
      resources: ['crm://deals/1', 'crm://deals/1'],
    });
    expect(check.ok && check.scope).toEqual({
      operations: ['crm.deals.read', 'crm.contacts.read'],
      resources: ['crm://deals/1'],
      forbidden_operations: ['crm.contacts.delete*'],
    });
  });

  it('covers by the union of the card patterns', () => {
    const split: MandateScope = { operations: ['x.*', 'x.*.**', 'x.*/**', 'x.*:**'], resources: ['**'], forbidden_operations: [] };
    expect(checkRequestedScope(split, { operations: ['x.**'], resources: ['a'] }).ok).toBe(true);
  });
});

describe('checkRequestedScope: beyond the card', () => {
  it('names every offending item with its path, and suggests the rest', () => {
    const check = checkRequestedScope(card, {
      operations: ['crm.contacts.read', 'billing.read', 'crm.contacts.delete'],
      resources: ['crm://contacts/1', 's3://bucket/x'],
    });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.violations.map((v) => v.path)).toEqual(['requested_scope.operations[1]', 'requested_scope.operations[2]', 'requested_scope.resources[1]']);
    expect(check.violations[0]!.message).toBe(
      'requested_scope.operations[1] "billing.read" is outside the card\'s operations (it matches e.g. "billing.read")',
    );
    expect(check.violations[1]!.message).toBe('requested_scope.operations[2] "crm.contacts.delete" is forbidden by the card');
    expect(check.suggested_scope).toEqual({
      operations: ['crm.contacts.read'],
      resources: ['crm://contacts/1'],
      forbidden_operations: ['crm.contacts.delete*'],
    });
  });

  it('treats a glob wholly inside the forbidden operations as forbidden', () => {
    const check = checkRequestedScope(card, { operations: ['crm.contacts.delete_*'], resources: ['crm://contacts/1'] });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.suggested_scope.operations).toEqual([]);
  });

  it('refuses a glob broader than the card, with a value it would reach', () => {
    const check = checkRequestedScope(card, { operations: ['crm.contacts.**'], resources: ['crm://contacts/1'] });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    const example = /e\.g\. "(.*)"\)$/.exec(check.violations[0]!.message)![1]!;
    expect(matchesAnyGlob(example, ['crm.contacts.**'])).toBe(true);
    expect(matchesAnyGlob(example, card.operations)).toBe(false);
  });

  it('narrows a too-broad glob to the card patterns inside it, minus wholly forbidden ones', () => {
    const wide: MandateScope = {
      operations: ['crm.contacts.read', 'crm.deals.*', 'crm.contacts.delete', 'billing.read'],
      resources: ['crm://a/*', 'crm://b/1'],
      forbidden_operations: ['crm.contacts.delete'],
    };
    const check = checkRequestedScope(wide, { operations: ['crm.**'], resources: ['crm://**'] });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.suggested_scope).toEqual({
        operations: ['crm.contacts.read', 'crm.deals.*'],
        resources: ['crm://a/*', 'crm://b/1'],
        forbidden_operations: ['crm.contacts.delete'],
      });
    }
  });

  it('drops a partial overlap that no card pattern fits inside', () => {
    const check = checkRequestedScope(card, { operations: ['crm.*.read'], resources: ['crm://contacts/1'] });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.suggested_scope.operations).toEqual(['crm.deals.read']);
  });

  it('suggests nothing when nothing fits, and every suggestion is itself granted', () => {
    const requests: RequestedScope[] = [
      { operations: ['payroll.*'], resources: ['hr://**'] },
      { operations: ['crm.**', 'crm.contacts.read', 'x'], resources: ['**', 'crm://deals/7'], forbidden_operations: ['crm.search_all'] },
      { operations: ['*.*.*'], resources: ['crm://*/*'] },
    ];
    const [none, ...rest] = requests.map((r) => checkRequestedScope(card, r));
    expect(none).toEqual({
      ok: false,
      violations: expect.any(Array),
      suggested_scope: { operations: [], resources: [], forbidden_operations: ['crm.contacts.delete*'] },
    });
    for (const check of rest) {
      expect(check.ok).toBe(false);
      if (check.ok) continue;
      const again = checkRequestedScope(card, check.suggested_scope);
      expect(again).toEqual({ ok: true, scope: check.suggested_scope });
    }
  });
});

describe('checkRequestedScope: only operations is required (DESIGN 6.8)', () => {
  it.each([
    ['absent', { operations: ['crm.contacts.read'] }],
    ['empty', { operations: ['crm.contacts.read'], resources: [], forbidden_operations: [] }],
    ['null', { operations: ['crm.contacts.read'], resources: null, forbidden_operations: null }],
  ])('resources and forbidden_operations %s: granted with no resources and the card forbidden operations', (_how, requested) => {
    expect(checkRequestedScope(card, requested as RequestedScope)).toEqual({
      ok: true,
      scope: { operations: ['crm.contacts.read'], resources: [], forbidden_operations: ['crm.contacts.delete*'] },
    });
  });

  it('an operations-only request beyond the card is a violation whose suggested scope has no resources', () => {
    const check = checkRequestedScope(card, { operations: ['crm.contacts.read', 'crm.payroll.read'] });
    expect(check.ok).toBe(false);
    expect(check.ok ? null : check.suggested_scope).toEqual({
      operations: ['crm.contacts.read'],
      resources: [],
      forbidden_operations: ['crm.contacts.delete*'],
    });
  });

  it('a granted scope without resources passes its refresh recheck', () => {
    const scope: MandateScope = { operations: ['crm.contacts.read'], resources: [], forbidden_operations: [] };
    expect(recheckScope(card, scope)).toEqual({ ...scope, forbidden_operations: ['crm.contacts.delete*'] });
  });
});

describe('checkRequestedScope: malformed requests are 400', () => {
  it.each([
    [{ operations: [], resources: ['a'] }, 'requested_scope.operations'],
    [{ operations: ['a'], resources: 'a' }, 'requested_scope.resources'],
    [{ operations: 'a', resources: ['a'] }, 'requested_scope.operations'],
    [{ resources: ['a'] }, 'requested_scope.operations'],
    [{ operations: ['a', ''], resources: ['a'] }, 'requested_scope.operations[1]'],
    [{ operations: ['a'], resources: ['x'.repeat(513)] }, 'requested_scope.resources[0]'],
    [{ operations: ['a'], resources: ['a'], forbidden_operations: [7] }, 'requested_scope.forbidden_operations[0]'],
    [{ operations: ['a'], resources: ['a'], forbidden_operations: 'a' }, 'requested_scope.forbidden_operations'],
    [{ operations: Array.from({ length: MANDATE_SCOPE_MAX_ITEMS + 1 }, (_, i) => `op${i}`), resources: ['a'] }, 'requested_scope.operations'],
  ])('%j → %s', (requested, path) => {
    const err = failure(() => checkRequestedScope(card, requested as unknown as RequestedScope));
    expect(err.code).toBe('invalid_request');
    expect((err.extra['details'] as { path: string }[])[0]!.path).toBe(path);
  });

  it('refuses a missing scope', () => {
    expect(failure(() => checkRequestedScope(card, undefined as unknown as RequestedScope)).code).toBe('invalid_request');
  });
});

describe('grantScope and recheckScope', () => {
  it('grantScope returns the scope or throws 403 mandate_violation with suggested_scope and details', () => {
    expect(grantScope(card, { operations: ['crm.deals.read'], resources: ['crm://deals/1'] }).operations).toEqual(['crm.deals.read']);
    const err = failure(() => grantScope(card, { operations: ['crm.deals.read', 'crm.deals.write', 'crm.x'], resources: ['crm://deals/1'] }));
    expect(err.kind).toBe('forbidden');
    expect(err.code).toBe('mandate_violation');
    expect(err.message).toMatch(
      /^requested scope exceeds the intent card: requested_scope.operations\[1\] "crm.deals.write" is outside the card's operations .* \(and 1 more\)$/,
    );
    expect(err.extra['suggested_scope']).toEqual({
      operations: ['crm.deals.read'],
      resources: ['crm://deals/1'],
      forbidden_operations: ['crm.contacts.delete*'],
    });
    expect((err.extra['details'] as unknown[]).length).toBe(2);
  });

  it('recheckScope adds forbidden operations the card gained since, and refuses what it no longer allows', () => {
    const scope: MandateScope = { operations: ['crm.contacts.read'], resources: ['crm://contacts/1'], forbidden_operations: ['crm.x'] };
    const stricter = { ...card, forbidden_operations: ['crm.contacts.delete*', 'crm.contacts.export'] };
    expect(recheckScope(stricter, scope)).toEqual({ ...scope, forbidden_operations: ['crm.contacts.delete*', 'crm.contacts.export', 'crm.x'] });
    const narrower = { ...card, operations: ['crm.deals.*'] };
    const err = failure(() => recheckScope(narrower, scope));
    expect(err.code).toBe('scope_outside_intent');
    expect(err.kind).toBe('forbidden');
    expect((err.extra['details'] as { path: string }[])[0]!.path).toBe('scope.operations[0]');
  });
});
