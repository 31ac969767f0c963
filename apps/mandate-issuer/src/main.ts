import 'reflect-metadata';
import { POLICY_REGISTRY_API } from '@igw/contracts';
import { loadConfigOrExit } from '@igw/config';
import { createLogger, HttpPolicyRegistryClient, InternalServiceClient } from '@igw/http';
import { brokerProviders, DEFAULT_KEY_SCHEDULE, MANDATE_ISSUER_MIGRATIONS, MANDATE_ISSUER_SCHEMA, MandateIssuerConfig, MandateIssuerModule, parseKek } from '@igw/mandate-issuer';
import { cacheCheck, createEventBus, createRedis, createVersionBoard, databaseCheck, eventsCheck, openServiceInfra, runApp, serveService, StartupError } from '@igw/runtime';

/**
 * Distributed mode: mandates behind the gateway (`/v1/mandate/*`, the JWKS forwarded without a
 * key), and `/internal/mandates/revocations` for the decision proxy. Reads intent cards from the
 * registry's internal route; keys live in PostgreSQL, sealed with MANDATE_KEK; each revocation
 * advances the org's counter on the version board in Redis.
 */
runApp('mandate-issuer', async () => {
  const config = loadConfigOrExit(MandateIssuerConfig, { GATEWAY_MODE: 'distributed', PORT: '8083', ...process.env });
  if (config.GATEWAY_MODE !== 'distributed') throw new StartupError('the mandate-issuer app runs in distributed mode; `npm start` runs embedded mode');
  const kek = parseKek(config.MANDATE_KEK!);
  if (!kek) throw new StartupError('MANDATE_KEK must be 32 bytes as base64 or hex');

  const logger = createLogger(config.LOG_LEVEL, 'mandate-issuer');
  const bus = createEventBus(config, 'mandate-issuer', logger);
  const infra = await openServiceInfra(config, { schema: MANDATE_ISSUER_SCHEMA, migrations: MANDATE_ISSUER_MIGRATIONS, bus, logger });
  // Verifiers check the org revocation counters here on every call; the issuer advances them after each revocation commits.
  const redis = createRedis(config, logger);
  const versionBoard = createVersionBoard(config, redis);
  const token = config.INTERNAL_AUTH_TOKEN!;
  const registryHttp = new InternalServiceClient(config.POLICY_REGISTRY_URL!, token, { service: 'policy-registry' });
  const rotationDays = config.MANDATE_KEY_ROTATION_DAYS ? Number(config.MANDATE_KEY_ROTATION_DAYS) : undefined;

  return serveService({
    name: 'mandate-issuer',
    config,
    logger,
    bus,
    infra,
    imports: [
      MandateIssuerModule.register({
        db: infra.db,
        notifier: infra.notifier,
        kek,
        brokers: brokerProviders(config),
        versionBoard,
        internalRoutes: true,
        providers: [{ provide: POLICY_REGISTRY_API, useValue: new HttpPolicyRegistryClient(registryHttp, 'svc:mandate-issuer') }],
        ...(rotationDays ? { keyRing: { policy: { ...DEFAULT_KEY_SCHEDULE, rotationIntervalSeconds: rotationDays * 86400 } } } : {}),
      }),
    ],
    checks: [databaseCheck(infra.db), eventsCheck(bus), ...(redis ? [cacheCheck(redis)] : [])],
    redis,
    // Revocations answered before Redis is up would leave the board behind (verifiers then catch up from the events).
    redisWarning: 'redis not ready: version board writes fail until it is; revocations still succeed',
    release: () => registryHttp.close(),
  });
});
