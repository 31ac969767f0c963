import 'reflect-metadata';
import { APPROVALS_API, INTENT_EVALUATOR_API, MANDATE_ISSUER_API, POLICY_REGISTRY_API } from '@igw/contracts';
import { loadConfigOrExit, requireDistributed } from '@igw/config';
import {
  HttpApprovalsClient,
  HttpIntentEvaluatorClient,
  HttpMandateIssuerClient,
  HttpPolicyRegistryClient,
  InternalServiceClient,
  processMetrics,
  serviceUrls,
} from '@igw/http';
import {
  DECISION_PROXY_MIGRATIONS,
  DECISION_PROXY_SCHEMA,
  DecisionProxyConfig,
  DecisionProxyModule,
  decisionProxySettings,
  HttpJwksSource,
  ReplicatedJwksSource,
  JWKS_SOURCE,
  RedisMcpSessionStore,
} from '@igw/decision-proxy';
import { ReadModelTracker } from '@igw/events';
import { openService, replicaGroup, runApp, serveService, serviceChecks } from '@igw/runtime';

/**
 * Distributed mode: `POST /v1/mcp-proxy/call` and the review queue behind the gateway. Cards come
 * from the registry, keys and revocations from the issuer, both kept in memory and current through
 * events plus the version board in Redis (both loaded at start, before the process reports ready);
 * every decision is committed to PostgreSQL (group commit) before it is answered.
 */
runApp('decision-proxy', async () => {
  const config = requireDistributed(loadConfigOrExit(DecisionProxyConfig, { GATEWAY_MODE: 'distributed', PORT: '8084', ...process.env }), 'decision-proxy', [
    'INTERNAL_AUTH_TOKEN',
    'POLICY_REGISTRY_URL',
    'APPROVALS_URL',
    'MANDATE_ISSUER_URL',
    'INTENT_EVALUATOR_URL',
  ]);

  const svc = await openService(config, 'decision-proxy', { schema: DECISION_PROXY_SCHEMA, migrations: DECISION_PROXY_MIGRATIONS });
  const { bus, infra, versionBoard } = svc;
  const token = config.INTERNAL_AUTH_TOKEN;
  const registryHttp = new InternalServiceClient(config.POLICY_REGISTRY_URL, token, { service: 'policy-registry' });
  const approvalsHttp = new InternalServiceClient(config.APPROVALS_URL, token, { service: 'approvals' });
  const issuerHttp = new InternalServiceClient(config.MANDATE_ISSUER_URL, token, { service: 'mandate-issuer' });
  const evaluatorHttp = new InternalServiceClient(config.INTENT_EVALUATOR_URL, token, { service: 'intent-evaluator' });
  // Ready once cards and revocations of every org that has any are loaded from their owners.
  const readModels = new ReadModelTracker(processMetrics());
  const checks = serviceChecks(svc, readModels);

  return serveService({
    ...svc,
    name: 'decision-proxy',
    config,
    imports: [
      DecisionProxyModule.register({
        db: infra.db,
        notifier: infra.notifier,
        deadLetters: infra.deadLetters,
        // GET /internal/stats/…: the gateway composes GET /v1/stats from it.
        internalRoutes: true,
        readModels,
        bus,
        // Every replica keeps its own read models, so each needs every event.
        readModelGroup: replicaGroup('decision-proxy.read-model'),
        versionBoard,
        ...decisionProxySettings(config),
        // MCP sessions in Redis: any replica serves any request of a session, across restarts.
        ...(svc.redis ? { mcpSessionStore: new RedisMcpSessionStore(svc.redis) } : {}),
        providers: [
          { provide: POLICY_REGISTRY_API, useValue: new HttpPolicyRegistryClient(registryHttp, 'svc:decision-proxy') },
          { provide: APPROVALS_API, useValue: new HttpApprovalsClient(approvalsHttp) },
          { provide: MANDATE_ISSUER_API, useValue: new HttpMandateIssuerClient(issuerHttp, 'svc:decision-proxy') },
          { provide: INTENT_EVALUATOR_API, useValue: new HttpIntentEvaluatorClient(evaluatorHttp) },
          // Fixed by configuration: never a URL named by a token.
          {
            provide: JWKS_SOURCE,
            useValue: new ReplicatedJwksSource(serviceUrls(config.MANDATE_ISSUER_URL).map((u) => new HttpJwksSource(`${u}/v1/mandate/jwks`))),
          },
        ],
      }),
    ],
    checks,
    redisWarning: 'redis is not reachable yet; decisions answer 503 until it is',
    release: async () => {
      await Promise.all([registryHttp.close(), approvalsHttp.close(), issuerHttp.close(), evaluatorHttp.close()]);
    },
  });
});
