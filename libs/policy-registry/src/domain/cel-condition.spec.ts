import * as kernel from '@igw/kernel';
import { checkRuleCondition, RULE_CONDITION_VARIABLES, ruleConditionEnv } from './cel-condition';
import * as registry from '../index';

// The checker itself is tested in the kernel (rule-condition.spec.ts); the registry re-exports it.
describe('rule conditions (re-exported from the kernel)', () => {
  it('is the kernel checker', () => {
    expect(checkRuleCondition).toBe(kernel.checkRuleCondition);
    expect(ruleConditionEnv).toBe(kernel.ruleConditionEnv);
    expect(RULE_CONDITION_VARIABLES).toBe(kernel.RULE_CONDITION_VARIABLES);
  });

  it('stays exported from @igw/policy-registry', () => {
    expect(registry.checkRuleCondition).toBe(kernel.checkRuleCondition);
    expect(registry.ruleConditionEnv).toBe(kernel.ruleConditionEnv);
    expect(registry.RULE_CONDITION_VARIABLES).toBe(kernel.RULE_CONDITION_VARIABLES);
  });

  it('still checks as before', () => {
    expect(checkRuleCondition('action.operation == "x"')).toBeNull();
    expect(checkRuleCondition('user == "a"')).toMatch(/undeclared reference to 'user'/);
  });
});
