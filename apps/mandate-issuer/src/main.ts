import 'reflect-metadata';
import { POLICY_REGISTRY_API } from '@igw/contracts';
import { loadConfigOrExit, requireDistributed } from '@igw/config';
import { HttpPolicyRegistryClient, InternalServiceClient } from '@igw/http';
import { MANDATE_ISSUER_MIGRATIONS, MANDATE_ISSUER_SCHEMA, MandateIssuerConfig, MandateIssuerModule, mandateIssuerSettings } from '@igw/mandate-issuer';
import { openService, runApp, serveService, serviceChecks } from '@igw/runtime';

/**
 * Distributed mode: mandates behind the gateway (`/v1/mandate/*`, the JWKS forwarded without a
 * key), and `/internal/mandates/revocations` for the decision proxy. Reads intent cards from the
 * registry's internal route; keys live in PostgreSQL, sealed with MANDATE_KEK; each revocation
 * advances the org's counter on the version board in Redis.
 */
runApp('mandate-issuer', async () => {
  const config = requireDistributed(loadConfigOrExit(MandateIssuerConfig, { GATEWAY_MODE: 'distributed', PORT: '8083', ...process.env }), 'mandate-issuer', [
    'INTERNAL_AUTH_TOKEN',
    'POLICY_REGISTRY_URL',
  ]);
  const settings = mandateIssuerSettings(config);

  // Verifiers check the org revocation counters here on every call; the issuer advances them after each revocation commits.
  const svc = await openService(config, 'mandate-issuer', { schema: MANDATE_ISSUER_SCHEMA, migrations: MANDATE_ISSUER_MIGRATIONS });
  const { infra, versionBoard } = svc;
  const registryHttp = new InternalServiceClient(config.POLICY_REGISTRY_URL, config.INTERNAL_AUTH_TOKEN, { service: 'policy-registry' });

  return serveService({
    ...svc,
    name: 'mandate-issuer',
    config,
    imports: [
      MandateIssuerModule.register({
        db: infra.db,
        notifier: infra.notifier,
        ...settings,
        versionBoard,
        internalRoutes: true,
        providers: [{ provide: POLICY_REGISTRY_API, useValue: new HttpPolicyRegistryClient(registryHttp, 'svc:mandate-issuer') }],
      }),
    ],
    checks: serviceChecks(svc),
    // Revocations answered before Redis is up would leave the board behind (verifiers then catch up from the events).
    redisWarning: 'redis not ready: revocations answer 503 until it is (the version board cannot be advanced)',
    release: () => registryHttp.close(),
  });
});
