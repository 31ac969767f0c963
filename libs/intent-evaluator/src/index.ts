export * from './intent-evaluator.module';
export { EVALUATOR_MIGRATIONS, EVALUATOR_SCHEMA } from './adapters/prisma/evaluator-prisma.client';
export { JoseGrantService, generateGrantKey, type GrantKeyInput } from './adapters/jose/jose-grant.service';
export { grantKeyPath, loadOrCreateEmbeddedGrantKey, parseGrantKeySetting } from './adapters/keys/grant-key.store';
export { EvaluatorConfig, classificationProviders, type ClassificationSettings } from './evaluator.config';
export { evaluatorSettings, type EvaluatorSettings } from './evaluator.options';
export { PurgeCallsSettings, purgeEvaluatorCalls } from './call-retention.task';
