export {
  PolicyRegistryModule,
  POLICY_REGISTRY_SCHEMA,
  POLICY_REGISTRY_MIGRATIONS,
  POLICY_REGISTRY_USE_CASES,
  type PolicyRegistryModuleOptions,
} from './policy-registry.module';
export { checkRuleCondition, ruleConditionEnv, RULE_CONDITION_VARIABLES } from './domain/cel-condition';
export { CreateIntentionUseCase } from './application/use-cases/create-intention.use-case';
export { ListIntentionsUseCase, type IntentionPage } from './application/use-cases/list-intentions.use-case';
export { GetIntentionUseCase } from './application/use-cases/get-intention.use-case';
export { PublishIntentionUseCase } from './application/use-cases/publish-intention.use-case';
export { ArchiveIntentionUseCase } from './application/use-cases/archive-intention.use-case';
export { UpdateIntentionUseCase } from './application/use-cases/update-intention.use-case';
export { AddIntentionExampleUseCase } from './application/use-cases/add-intention-example.use-case';
export { ListIntentionExamplesUseCase, type IntentionExamplePage } from './application/use-cases/list-intention-examples.use-case';
export { RemoveIntentionExampleUseCase } from './application/use-cases/remove-intention-example.use-case';
export { TeachIntentionExamplesUseCase } from './application/use-cases/teach-intention-examples.use-case';
export { ForgetTaughtExamplesUseCase } from './application/use-cases/forget-taught-examples.use-case';
export { InstallIntentCardUseCase } from './application/use-cases/install-intent-card.use-case';
export { ListIntentCardsUseCase } from './application/use-cases/list-intent-cards.use-case';
export { GetIntentCardUseCase } from './application/use-cases/get-intent-card.use-case';
export { DeleteIntentCardUseCase } from './application/use-cases/delete-intent-card.use-case';
export { GetActiveIntentionsUseCase } from './application/use-cases/get-active-intentions.use-case';
export { GetIntentCardsSnapshotUseCase } from './application/use-cases/get-intent-cards-snapshot.use-case';
export { InProcessPolicyRegistryClient } from './adapters/in-process/in-process-policy-registry.client';
