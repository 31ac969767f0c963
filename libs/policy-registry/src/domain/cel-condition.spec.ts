import * as shared from '@igw/rule-conditions';
import { checkRuleCondition, RULE_CONDITION_VARIABLES, ruleConditionEnv } from './cel-condition';
import * as registry from '../index';

// The checker itself is tested in @igw/rule-conditions (rule-condition.spec.ts); the registry re-exports it.
describe('rule conditions (re-exported from @igw/rule-conditions)', () => {
  it('is the shared checker', () => {
    expect(checkRuleCondition).toBe(shared.checkRuleCondition);
    expect(ruleConditionEnv).toBe(shared.ruleConditionEnv);
    expect(RULE_CONDITION_VARIABLES).toBe(shared.RULE_CONDITION_VARIABLES);
  });

  it('stays exported from @igw/policy-registry', () => {
    expect(registry.checkRuleCondition).toBe(shared.checkRuleCondition);
    expect(registry.ruleConditionEnv).toBe(shared.ruleConditionEnv);
    expect(registry.RULE_CONDITION_VARIABLES).toBe(shared.RULE_CONDITION_VARIABLES);
  });

  it('still checks as before', () => {
    expect(checkRuleCondition('action.operation == "x"')).toBeNull();
    expect(checkRuleCondition('user == "a"')).toMatch(/undeclared reference to 'user'/);
  });
});
