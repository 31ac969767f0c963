import 'reflect-metadata';
import { hostname } from 'node:os';
import { APPROVALS_API, POLICY_REGISTRY_API } from '@igw/contracts';
import { loadConfigOrExit } from '@igw/config';
import { createLogger, HttpApprovalsClient, HttpPolicyRegistryClient, InternalServiceClient } from '@igw/http';
import {
  classificationProviders,
  EVALUATOR_MIGRATIONS,
  EVALUATOR_SCHEMA,
  EvaluatorConfig,
  IntentEvaluatorModule,
  JoseGrantService,
  parseGrantKeySetting,
} from '@igw/intent-evaluator';
import { ReadModelTracker } from '@igw/events';
import { cacheCheck, createEventBus, createRedis, createVersionBoard, databaseCheck, eventsCheck, openServiceInfra, recordsCheck, runApp, serveService, StartupError } from '@igw/runtime';

/**
 * Distributed mode: `POST /v1/intent/evaluate`, `GET /v1/intent/history`, `POST /v1/grants/verify`
 * behind the gateway. Reads the registry and approvals over their internal routes, the version
 * board in Redis, and records intent events in PostgreSQL.
 */
runApp('intent-evaluator', async () => {
  const config = loadConfigOrExit(EvaluatorConfig, { GATEWAY_MODE: 'distributed', PORT: '8082', ...process.env });
  if (config.GATEWAY_MODE !== 'distributed') throw new StartupError('the intent-evaluator app runs in distributed mode; `npm start` runs embedded mode');
  if (!config.GRANT_SIGNING_KEY) throw new StartupError('GRANT_SIGNING_KEY must be set in distributed mode (an Ed25519 private key: PKCS#8 PEM or JWK JSON, shared by every evaluator replica)');
  const grantKey = parseGrantKeySetting(config.GRANT_SIGNING_KEY);
  try {
    new JoseGrantService(grantKey);
  } catch (err) {
    throw new StartupError(`GRANT_SIGNING_KEY: ${(err as Error).message}`);
  }

  const logger = createLogger(config.LOG_LEVEL, 'intent-evaluator');
  const bus = createEventBus(config, 'intent-evaluator', logger);
  const infra = await openServiceInfra(config, { schema: EVALUATOR_SCHEMA, migrations: EVALUATOR_MIGRATIONS, bus, logger });
  const redis = createRedis(config, logger);
  const versionBoard = createVersionBoard(config, redis);
  const token = config.INTERNAL_AUTH_TOKEN!;
  const registryHttp = new InternalServiceClient(config.POLICY_REGISTRY_URL!, token, { service: 'policy-registry' });
  const approvalsHttp = new InternalServiceClient(config.APPROVALS_URL!, token, { service: 'approvals' });
  // Ready once every org's active intentions are loaded from the registry.
  const readModels = new ReadModelTracker();
  const checks = [databaseCheck(infra.db), eventsCheck(bus), ...(redis ? [cacheCheck(redis)] : []), readModels.check(), recordsCheck([infra])];

  return serveService({
    name: 'intent-evaluator',
    config,
    logger,
    bus,
    infra,
    imports: [
      IntentEvaluatorModule.register({
        db: infra.db,
        notifier: infra.notifier,
        deadLetters: infra.deadLetters,
        readModels,
        bus,
        // Every replica keeps its own read model, so each needs every event.
        readModelGroup: `intent-evaluator.read-model.${hostname()}.${process.pid}`,
        versionBoard,
        grantKey,
        providers: [
          { provide: POLICY_REGISTRY_API, useValue: new HttpPolicyRegistryClient(registryHttp, 'svc:intent-evaluator') },
          { provide: APPROVALS_API, useValue: new HttpApprovalsClient(approvalsHttp) },
        ],
        classification: classificationProviders(config),
      }),
    ],
    checks,
    redis,
    redisWarning: 'redis is not reachable yet; evaluations answer 503 until it is',
    release: async () => {
      await Promise.all([registryHttp.close(), approvalsHttp.close()]);
    },
  });
});
