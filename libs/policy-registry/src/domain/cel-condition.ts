/**
 * Rule conditions live in a shared lib (`@igw/rule-conditions`) so that the decision
 * proxy evaluates exactly what the registry checks at install, without either service importing
 * the other. Re-exported here for the registry's existing imports.
 */
export { checkRuleCondition, ruleConditionEnv, RULE_CONDITION_VARIABLES } from '@igw/rule-conditions';
