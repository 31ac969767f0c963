import 'reflect-metadata';
import { loadConfigOrExit } from '@igw/config';
import { GATEWAY_MIGRATIONS, GATEWAY_SCHEMA } from '@igw/api-gateway';
import { POLICY_REGISTRY_MIGRATIONS, POLICY_REGISTRY_SCHEMA } from '@igw/policy-registry';
import { APPROVALS_MIGRATIONS, APPROVALS_SCHEMA } from '@igw/approvals';
import { EVALUATOR_MIGRATIONS, EVALUATOR_SCHEMA } from '@igw/intent-evaluator';
import { MANDATE_ISSUER_MIGRATIONS, MANDATE_ISSUER_SCHEMA } from '@igw/mandate-issuer';
import { DECISION_PROXY_MIGRATIONS, DECISION_PROXY_SCHEMA } from '@igw/decision-proxy';
import { WEBHOOK_DISPATCHER_MIGRATIONS, WEBHOOK_DISPATCHER_SCHEMA } from '@igw/webhook-dispatcher';
import { createLogger } from '@igw/http';
import { migrateSchemas, MigrateSettings, runTask } from '@igw/runtime';

/**
 * Applies every service's migrations to DATABASE_URL and exits: the chart's pre-install and
 * pre-upgrade hook, so a release's pods start against a schema that is already there. (Each
 * service still migrates at start-up — idempotent, under an advisory lock — so running without
 * the Job is safe too.)
 */
runTask('migrate', async () => {
  const config = loadConfigOrExit(MigrateSettings);
  const logger = createLogger(config.LOG_LEVEL, 'migrate', config.LOG_FORMAT);
  await migrateSchemas(config.DATABASE_URL, logger, [
    [GATEWAY_SCHEMA, GATEWAY_MIGRATIONS],
    [POLICY_REGISTRY_SCHEMA, POLICY_REGISTRY_MIGRATIONS],
    [APPROVALS_SCHEMA, APPROVALS_MIGRATIONS],
    [EVALUATOR_SCHEMA, EVALUATOR_MIGRATIONS],
    [MANDATE_ISSUER_SCHEMA, MANDATE_ISSUER_MIGRATIONS],
    [DECISION_PROXY_SCHEMA, DECISION_PROXY_MIGRATIONS],
    [WEBHOOK_DISPATCHER_SCHEMA, WEBHOOK_DISPATCHER_MIGRATIONS],
  ]);
});
