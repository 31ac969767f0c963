import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { loadConfigOrExit } from '@igw/config';
import { ApiGatewayModule, gatewaySettings, BootstrapOrgUseCase, GATEWAY_MIGRATIONS, GATEWAY_SCHEMA, GatewayConfig, serveConsole } from '@igw/api-gateway';
import { POLICY_REGISTRY_MIGRATIONS, POLICY_REGISTRY_SCHEMA, PolicyRegistryModule } from '@igw/policy-registry';
import { APPROVALS_MIGRATIONS, APPROVALS_SCHEMA, ApprovalsModule } from '@igw/approvals';
import { EVALUATOR_MIGRATIONS, EVALUATOR_SCHEMA, EvaluatorConfig, evaluatorSettings, IntentEvaluatorModule } from '@igw/intent-evaluator';
import {
  KeyRing,
  MANDATE_ISSUER_MIGRATIONS,
  MANDATE_ISSUER_SCHEMA,
  MandateIssuerConfig,
  MandateIssuerModule,
  mandateIssuerSettings,
} from '@igw/mandate-issuer';
import {
  WEBHOOK_DISPATCHER_MIGRATIONS,
  WEBHOOK_DISPATCHER_SCHEMA,
  WebhookDispatcherConfig,
  webhookDispatcherSettings,
  WebhookDispatcherModule,
} from '@igw/webhook-dispatcher';
import {
  DECISION_PROXY_MIGRATIONS,
  DECISION_PROXY_SCHEMA,
  DecisionProxyConfig,
  DecisionProxyModule,
  decisionProxySettings,
  JWKS_SOURCE,
  ReplayCardDraftUseCase,
  type JwkSet,
} from '@igw/decision-proxy';
import {
  GATEWAY_API_DESCRIPTION,
  MetricsModule,
  ProbesController,
  READINESS_CHECKS,
  closeHttpApp,
  createHttpApp,
  createLogger,
  processMetrics,
} from '@igw/http';
import { closeEmbeddedDatabase, embeddedVacuumTask } from '@igw/persistence';
import { APPROVAL_STATS_API, CARD_REPLAY_API, DECISION_STATS_API, EVALUATION_STATS_API, type CardReplayApi } from '@igw/contracts';
import { ReadModelTracker } from '@igw/events';
import { cacheCheck, createEventBus, createVersionBoard, databaseCheck, eventsCheck, openServiceInfra, recordsCheck, runApp } from '@igw/runtime';
import { VERSION } from '@igw/kernel';

/** Embedded mode: every service in one process, PGlite under DATA_DIR, the in-process bus. */
runApp('intent-gateway', async () => {
  const config = loadConfigOrExit(GatewayConfig, { ...process.env, GATEWAY_MODE: 'embedded' });
  const evaluatorConfig = loadConfigOrExit(EvaluatorConfig, { ...process.env, GATEWAY_MODE: 'embedded' });
  const issuerConfig = loadConfigOrExit(MandateIssuerConfig, { ...process.env, GATEWAY_MODE: 'embedded' });
  const proxyConfig = loadConfigOrExit(DecisionProxyConfig, { ...process.env, GATEWAY_MODE: 'embedded' });
  const webhookConfig = loadConfigOrExit(WebhookDispatcherConfig, { ...process.env, GATEWAY_MODE: 'embedded' });
  const webhookSettings = webhookDispatcherSettings(webhookConfig);
  const issuerSettings = mandateIssuerSettings(issuerConfig);
  const evaluatorOptions = evaluatorSettings(evaluatorConfig);
  const logger = createLogger(config.LOG_LEVEL, 'intent-gateway', config.LOG_FORMAT);
  const bus = createEventBus(config, 'embedded', logger);
  const gateway = await openServiceInfra(config, { schema: GATEWAY_SCHEMA, migrations: GATEWAY_MIGRATIONS, bus, logger });
  const registry = await openServiceInfra(config, { schema: POLICY_REGISTRY_SCHEMA, migrations: POLICY_REGISTRY_MIGRATIONS, bus, logger });
  const approvals = await openServiceInfra(config, { schema: APPROVALS_SCHEMA, migrations: APPROVALS_MIGRATIONS, bus, logger });
  const evaluator = await openServiceInfra(config, { schema: EVALUATOR_SCHEMA, migrations: EVALUATOR_MIGRATIONS, bus, logger });
  const issuer = await openServiceInfra(config, { schema: MANDATE_ISSUER_SCHEMA, migrations: MANDATE_ISSUER_MIGRATIONS, bus, logger });
  const proxy = await openServiceInfra(config, { schema: DECISION_PROXY_SCHEMA, migrations: DECISION_PROXY_MIGRATIONS, bus, logger });
  const webhooks = await openServiceInfra(config, { schema: WEBHOOK_DISPATCHER_SCHEMA, migrations: WEBHOOK_DISPATCHER_MIGRATIONS, bus, logger });
  const infras = [gateway, registry, approvals, evaluator, issuer, proxy, webhooks];
  const relays = infras.map((i) => i.relay);
  // Cards, revocations, active intentions and webhook subscriptions are loaded before listening.
  const readModels = new ReadModelTracker(processMetrics());
  const checks = [databaseCheck(gateway.db), eventsCheck(bus), cacheCheck(undefined), readModels.check(), recordsCheck(infras)];
  // The process's one board: the registry and the issuer advance it, the services that cache their state read it.
  const versionBoard = createVersionBoard(config, undefined);
  const registryModule = PolicyRegistryModule.register({ db: registry.db, notifier: registry.notifier, versionBoard });
  // Deciding with remember / intent_label reads and teaches the in-process registry (POLICY_REGISTRY_API).
  const approvalsModule = ApprovalsModule.register({ db: approvals.db, notifier: approvals.notifier, imports: [registryModule] });
  const issuerModule = MandateIssuerModule.register({
    db: issuer.db,
    notifier: issuer.notifier,
    ...issuerSettings,
    versionBoard,
    imports: [registryModule],
  });

  const evaluatorModule = IntentEvaluatorModule.register({
    db: evaluator.db,
    notifier: evaluator.notifier,
    deadLetters: evaluator.deadLetters,
    readModels,
    bus,
    readModelGroup: 'intent-evaluator.read-model',
    versionBoard,
    ...evaluatorOptions,
    // The in-process POLICY_REGISTRY_API and APPROVALS_API.
    imports: [registryModule, approvalsModule],
    // `POST /v1/replays` with kind card: the decision proxy's replay, found when a request asks
    // (the proxy's module imports this one, so it cannot be imported back).
    providers: [
      {
        provide: CARD_REPLAY_API,
        useFactory: (ref: ModuleRef): CardReplayApi => ({
          replayCard: (caller, body) => ref.get(ReplayCardDraftUseCase, { strict: false }).replayCard(caller, body),
        }),
        inject: [ModuleRef],
      },
    ],
  });

  @Module({
    imports: [
      MetricsModule,
      ApiGatewayModule.register({
        settings: gatewaySettings(config),
        db: gateway.db,
        notifier: gateway.notifier,
        healthChecks: checks,
        // GET /v1/stats reads the services' counts in-process.
        stats: { tokens: [EVALUATION_STATS_API, DECISION_STATS_API, APPROVAL_STATS_API] },
      }),
      registryModule,
      approvalsModule,
      evaluatorModule,
      issuerModule,
      DecisionProxyModule.register({
        db: proxy.db,
        notifier: proxy.notifier,
        deadLetters: proxy.deadLetters,
        readModels,
        bus,
        readModelGroup: 'decision-proxy.read-model',
        versionBoard,
        ...decisionProxySettings(proxyConfig),
        // In-process registry, approvals, issuer (revocations) and evaluator (the MCP legacy path); the issuer's key ring is the JWKS.
        imports: [registryModule, approvalsModule, issuerModule, evaluatorModule],
        providers: [{ provide: JWKS_SOURCE, useFactory: (ring: KeyRing) => ({ fetch: async () => ring.jwks().body as JwkSet }), inject: [KeyRing] }],
      }),
      WebhookDispatcherModule.register({
        db: webhooks.db,
        deadLetters: webhooks.deadLetters,
        bus,
        versionBoard,
        readModels,
        ...webhookSettings,
      }),
    ],
    controllers: [ProbesController],
    providers: [{ provide: READINESS_CHECKS, useValue: checks }],
  })
  class EmbeddedModule {}

  const app = await createHttpApp(EmbeddedModule, {
    name: 'intent-gateway',
    logger,
    openApi: { title: 'Intent Gateway', version: VERSION, description: GATEWAY_API_DESCRIPTION },
  });
  await serveConsole(app, { logger, redirectRoot: true });
  await bus.start();
  for (const relay of relays) relay.start();
  // PGlite has no autovacuum: the tables rewritten on every commit are vacuumed on a timer.
  const vacuum = embeddedVacuumTask(
    gateway.db,
    infras.map((i) => i.db.schema),
    new Logger('EmbeddedStore'),
  );
  vacuum?.start();

  const boot = await app.get(BootstrapOrgUseCase).execute();
  // Every service is in this process, so nothing can keep the read models from loading: wait.
  await readModels.whenReady();
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT, mode: 'embedded', data_dir: config.DATA_DIR }, 'intent gateway listening');
  if (boot.generatedKey) {
    // The one time this key is ever shown; it is stored only as a hash.
    process.stdout.write(
      `\n  Intent Gateway is running on http://localhost:${config.PORT} (embedded mode).\n` +
        `  Admin API key of org "default" (shown once, store it now):\n\n    ${boot.generatedKey}\n\n`,
    );
  }

  return async () => {
    await closeHttpApp(app);
    await Promise.all(relays.map((r) => r.stop()));
    await vacuum?.stop();
    await bus.stop();
    await closeEmbeddedDatabase();
  };
});
