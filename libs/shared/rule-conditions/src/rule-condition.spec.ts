import {
  checkRuleCondition,
  compileRuleCondition,
  prepareRuleConditionVars,
  RULE_CONDITION_VARIABLES,
  ruleConditionEnv,
  RuleConditionError,
} from './rule-condition';

describe('rule conditions (CEL)', () => {
  it.each([
    'action.operation == "crm.export" && size(action.arguments) > 2',
    'context.user in ["a","b"]',
    'mandate.scope.operations.exists(o, o.startsWith("crm."))',
    'has(action.arguments.limit) && action.arguments.limit > 100',
    'action.arguments["columns"].all(c, c != "ssn")',
    '!(context.department in ["finance", "legal"]) || mandate.acr == "urn:mfa"',
    'action.target_resource.matches("^crm://customers/[0-9]+$")',
    'action.arguments.filter(k, k.startsWith("x")).size() == 0',
    'context.hour >= 22 ? true : false',
    'context.flag == true',
    'action.arguments.map(k, k).exists_one(k, k == "id")',
    '{"a": 1}["a"] == 1 && [1, 2, 3][0] < 2',
    'true',
  ])('accepts %s', (expr) => {
    expect(checkRuleCondition(expr)).toBeNull();
  });

  it.each([
    ['action.operation ==', /found/],
    ['foo(', /found/],
    ['', /expect/],
    ['foo(1)', /undeclared reference to 'foo'/],
    ['user == "a"', /1:1: undeclared reference to 'user'/],
    ['action.operation.trim() == "x"', /undeclared reference to 'trim'/],
    ['"a".startsWith(1)', /no matching overload for 'startsWith' applied to 'string.\(int\)'/],
    ['1 + "a" == 2', /no matching overload for '_\+_'/],
    ['"a" == 1', /no matching overload for '_==_'/],
    ['1 && true', /no matching overload for '_&&_'/],
    ['size(1) > 0', /no matching overload for 'size'/],
    ['"abc".x == 1', /does not support field selection/],
    ['(1).exists(x, x)', /cannot be the range of a comprehension/],
    ['action.operation + "x"', /must evaluate to a bool, not 'string'/],
    ['action.operation', /must evaluate to a bool, not 'dyn': compare the field/],
    ['context.flag', /must evaluate to a bool, not 'dyn'/],
    ['context.hour >= 22 ? context.flag : false', /must evaluate to a bool, not 'dyn'/],
    ['size(action.arguments)', /must evaluate to a bool, not 'int'/],
    ['foo.Bar{x: 1} != null', /unknown type 'foo.Bar'/],
  ])('rejects %s', (expr, reason) => {
    expect(checkRuleCondition(expr)).toMatch(reason);
  });

  it('reports where the problem is', () => {
    expect(checkRuleCondition('action.operation == "a" &&\n  bogus > 1')).toMatch(/^<input>:2:3: undeclared reference to 'bogus'/);
  });
});

describe('compileRuleCondition', () => {
  const vars = (action: Record<string, unknown>, context: Record<string, unknown> = {}, mandate: Record<string, unknown> = {}) => ({
    action,
    context,
    mandate,
  });

  it('evaluates over action, context and mandate', () => {
    const when = compileRuleCondition('action.operation == "crm.export" && context.dept == "sales" && mandate.acr == "mfa"');
    expect(when(vars({ operation: 'crm.export' }, { dept: 'sales' }, { acr: 'mfa' }))).toBe(true);
    expect(when(vars({ operation: 'crm.export' }, { dept: 'legal' }, { acr: 'mfa' }))).toBe(false);
  });

  it('compares JSON numbers with CEL ints and reads nested lists', () => {
    const when = compileRuleCondition('action.arguments.limit > 100 && mandate.scope.operations.exists(o, o.startsWith("crm."))');
    expect(when(vars({ arguments: { limit: 150 } }, {}, { scope: { operations: ['crm.read'] } }))).toBe(true);
    expect(when(vars({ arguments: { limit: 50 } }, {}, { scope: { operations: ['crm.read'] } }))).toBe(false);
  });

  it('ignores undefined members (CEL has none)', () => {
    const when = compileRuleCondition('!has(mandate.acr)');
    expect(when(vars({}, {}, { acr: undefined, sub: 'a' }))).toBe(true);
  });

  it('throws RuleConditionError on an evaluation error instead of answering false', () => {
    const when = compileRuleCondition('action.arguments.limit > 100');
    expect(() => when(vars({ arguments: {} }))).toThrow(RuleConditionError);
    expect(() => when(vars({ arguments: {} }))).toThrow(/field not found: limit/);
    expect(() => compileRuleCondition('"a" < context.n')(vars({}, { n: 1 }))).toThrow(RuleConditionError);
  });

  it('refuses, before any decision, a condition whose result is not known to be a bool', () => {
    expect(() => compileRuleCondition('context.x')).toThrow(/does not compile: expression must evaluate to a bool, not 'dyn'/);
  });

  it('refuses a condition that does not check, with the checker reason', () => {
    expect(() => compileRuleCondition('user == "a"')).toThrow(RuleConditionError);
    expect(() => compileRuleCondition('user == "a"')).toThrow(/undeclared reference to 'user'/);
  });

  it('declares the three variables as map(string, dyn)', () => {
    expect(Object.keys(RULE_CONDITION_VARIABLES).sort()).toEqual(['action', 'context', 'mandate']);
    expect(ruleConditionEnv().variables.find('action')).toBeDefined();
  });
});

describe('prepareRuleConditionVars', () => {
  const vars = {
    action: {
      surface: 'sdk',
      operation: 'crm.contacts.read',
      arguments: { amount: 12000, fields: ['ssn', 'name'], nested: { deep: [{ k: 'v' }] } },
      target_resource: 'crm://contacts/1',
    },
    context: { region: 'eu', risk_score: 81, on_behalf_of: ['agent:a'] },
    mandate: { sub: 'agent:a', acr: 'mfa', scope: { operations: ['crm.*'], resources: ['crm://**'] } },
  };
  const conditions = [
    'action.operation == "crm.contacts.read"',
    'has(action.arguments.amount) && action.arguments.amount > 10000',
    'action.arguments.fields.exists(f, f in ["ssn", "dob"])',
    'action.arguments.nested.deep[0].k == "v"',
    'has(action.arguments.gone)',
    'context.region in ["cn", "ru"]',
    'context.on_behalf_of[0] == mandate.sub && mandate.acr != "hwk"',
    'mandate.scope.resources.exists(r, r.startsWith("crm://"))',
    'size(action.arguments) == 3',
  ];

  it('decides exactly as the plain vars do, for every condition, however often it is reused', () => {
    const prepared = prepareRuleConditionVars(vars);
    for (const c of conditions) {
      const compiled = compileRuleCondition(c);
      expect({ c, v: compiled(prepared) }).toEqual({ c, v: compiled(vars) });
      expect(compiled(prepared)).toBe(compiled(vars));
    }
  });

  it('leaves undefined members out at every depth (JSON has none)', () => {
    const withHole = { ...vars, action: { ...vars.action, arguments: { ...vars.action.arguments, gone: undefined } } };
    expect(compileRuleCondition('size(action.arguments) == 3 && !has(action.arguments.gone)')(prepareRuleConditionVars(withHole))).toBe(true);
  });

  it('still throws on a missing field, as with plain vars', () => {
    const compiled = compileRuleCondition('action.arguments.missing == 1');
    expect(() => compiled(prepareRuleConditionVars(vars))).toThrow(RuleConditionError);
  });
});
