import 'reflect-metadata';
import { APPROVALS_API, CARD_REPLAY_API, POLICY_REGISTRY_API } from '@igw/contracts';
import { loadConfigOrExit, requireDistributed } from '@igw/config';
import { HttpApprovalsClient, HttpCardReplayClient, HttpPolicyRegistryClient, InternalServiceClient, processMetrics } from '@igw/http';
import { EVALUATOR_MIGRATIONS, EVALUATOR_SCHEMA, EvaluatorConfig, evaluatorSettings, IntentEvaluatorModule } from '@igw/intent-evaluator';
import { ReadModelTracker } from '@igw/events';
import { openService, replicaGroup, runApp, serveService, serviceChecks } from '@igw/runtime';

/**
 * Distributed mode: `POST /v1/intent/evaluate`, `GET /v1/intent/history`, `POST /v1/grants/verify`
 * behind the gateway. Reads the registry and approvals over their internal routes, the version
 * board in Redis, and records intent events in PostgreSQL.
 */
runApp('intent-evaluator', async () => {
  const config = requireDistributed(loadConfigOrExit(EvaluatorConfig, { GATEWAY_MODE: 'distributed', PORT: '8082', ...process.env }), 'intent-evaluator', [
    'INTERNAL_AUTH_TOKEN',
    'POLICY_REGISTRY_URL',
    'APPROVALS_URL',
  ]);
  const settings = evaluatorSettings(config);

  const svc = await openService(config, 'intent-evaluator', { schema: EVALUATOR_SCHEMA, migrations: EVALUATOR_MIGRATIONS });
  const { bus, infra, versionBoard } = svc;
  const token = config.INTERNAL_AUTH_TOKEN;
  const registryHttp = new InternalServiceClient(config.POLICY_REGISTRY_URL, token, { service: 'policy-registry' });
  const approvalsHttp = new InternalServiceClient(config.APPROVALS_URL, token, { service: 'approvals' });
  // A card replay runs up to its own deadline (REPLAY_DEADLINE_MS there); the budget leaves it room.
  const proxyHttp = config.DECISION_PROXY_URL
    ? new InternalServiceClient(config.DECISION_PROXY_URL, token, { service: 'decision-proxy', timeoutMs: config.REPLAY_DEADLINE_MS + 5_000 })
    : null;
  // Ready once every org's active intentions are loaded from the registry.
  const readModels = new ReadModelTracker(processMetrics());
  const checks = serviceChecks(svc, readModels);

  return serveService({
    ...svc,
    name: 'intent-evaluator',
    config,
    imports: [
      IntentEvaluatorModule.register({
        db: infra.db,
        notifier: infra.notifier,
        deadLetters: infra.deadLetters,
        // GET /internal/stats/…: the gateway composes GET /v1/stats from it.
        internalRoutes: true,
        readModels,
        bus,
        // Every replica keeps its own read model, so each needs every event.
        readModelGroup: replicaGroup('intent-evaluator.read-model'),
        versionBoard,
        ...settings,
        providers: [
          { provide: POLICY_REGISTRY_API, useValue: new HttpPolicyRegistryClient(registryHttp, 'svc:intent-evaluator') },
          { provide: APPROVALS_API, useValue: new HttpApprovalsClient(approvalsHttp) },
          ...(proxyHttp ? [{ provide: CARD_REPLAY_API, useValue: new HttpCardReplayClient(proxyHttp) }] : []),
        ],
      }),
    ],
    checks,
    redisWarning: 'redis is not reachable yet; evaluations answer 503 until it is',
    release: async () => {
      await Promise.all([registryHttp.close(), approvalsHttp.close(), proxyHttp?.close()]);
    },
  });
});
