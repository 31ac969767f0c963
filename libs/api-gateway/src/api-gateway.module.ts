import { join } from 'node:path';
import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { StatsPartApi } from '@igw/contracts';
import { APP_GUARD, ModuleRef } from '@nestjs/core';
import type Redis from 'ioredis';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import { CALLER_RESOLVER, CallerGuard, PLATFORM_ADMIN_VERIFIER, type ReadinessCheck } from '@igw/http';
import type { ServiceDatabase } from '@igw/persistence';
import { API_KEY_REPOSITORY, ORG_REPOSITORY } from './application/ports/org.repository.port';
import { AUTH_EPOCH } from './application/ports/auth-epoch.port';
import { RATE_LIMITER } from './application/ports/rate-limiter.port';
import { GATEWAY_SETTINGS, type GatewaySettings } from './application/ports/gateway-settings';
import { AuthenticateApiKeyUseCase } from './application/use-cases/authenticate-api-key.use-case';
import { BootstrapOrgUseCase } from './application/use-cases/bootstrap-org.use-case';
import { CreateApiKeyUseCase } from './application/use-cases/create-api-key.use-case';
import { CreateOrgUseCase } from './application/use-cases/create-org.use-case';
import { ListApiKeysUseCase } from './application/use-cases/list-api-keys.use-case';
import { RevokeApiKeyUseCase } from './application/use-cases/revoke-api-key.use-case';
import { UpdateOrgUseCase } from './application/use-cases/update-org.use-case';
import { GetStatsUseCase, STATS_PARTS } from './application/use-cases/get-stats.use-case';
import { StatsHttpController } from './adapters/http/stats.http.controller';
import { ApiKeyCallerResolver } from './adapters/http/api-key.caller-resolver';
import { ApiKeysHttpController } from './adapters/http/api-keys.http.controller';
import { HEALTH_CHECKS, HealthHttpController } from './adapters/http/health.http.controller';
import { OrgsHttpController } from './adapters/http/orgs.http.controller';
import { MemoryAuthEpoch } from './adapters/memory/memory-auth-epoch';
import { createGatewayPrisma, GATEWAY_PRISMA } from './adapters/prisma/gateway-prisma.client';
import { PrismaApiKeyRepository, PrismaOrgRepository } from './adapters/prisma/prisma-org.repository';
import { FlexibleRateLimiter } from './adapters/rate-limit/flexible-rate-limiter';
import { RedisAuthEpoch } from './adapters/redis/redis-auth-epoch';
import { ServiceProxy } from './adapters/proxy/service-proxy';
import { SERVICE_PROXIES, ServiceProxyHttpController } from './adapters/proxy/service-proxy.http.controller';
import { PlatformAdminKeyVerifier } from './adapters/http/platform-admin';

export const GATEWAY_MIGRATIONS = join(__dirname, '../prisma/migrations');
export { GATEWAY_SCHEMA } from './adapters/prisma/gateway-prisma.client';

export interface ApiGatewayModuleOptions {
  settings: GatewaySettings;
  db: ServiceDatabase;
  notifier: OutboxNotifier;
  /** Distributed mode: shared rate limits and auth epoch. Embedded: absent, all in memory. */
  redis?: Redis;
  /** Dependency checks for GET /v1/health (database, events, cache, services). */
  healthChecks: ReadinessCheck[];
  /** Distributed mode: base URL and internal token per service whose routes the gateway forwards. */
  upstreams?: { services: Record<string, string>; internalToken: string };
  clock?: Clock;
  /**
   * Where `GET /v1/stats` reads the services' parts: the parts themselves (distributed: HTTP
   * clients of their internal routes) and/or the tokens other modules of the process export them
   * under (embedded), looked up when read so this module imports none of them.
   */
  stats?: { parts?: StatsPartApi[]; tokens?: symbol[] };
}

/**
 * The public edge: API-key admission and rate limits for every route of the process (a global
 * guard), orgs and keys, health, and — in distributed mode — forwarding to the services.
 */
@Module({})
export class ApiGatewayModule {
  static register(options: ApiGatewayModuleOptions): DynamicModule {
    const upstreams = options.upstreams;
    const proxies = new Map(upstreams ? Object.entries(upstreams.services).map(([name, url]) => [name, new ServiceProxy(url, upstreams.internalToken)]) : []);
    const providers: Provider[] = [
      { provide: GATEWAY_SETTINGS, useValue: options.settings },
      { provide: GATEWAY_PRISMA, useFactory: () => createGatewayPrisma(options.db) },
      { provide: OUTBOX_NOTIFIER, useValue: options.notifier },
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: ORG_REPOSITORY, useClass: PrismaOrgRepository },
      { provide: API_KEY_REPOSITORY, useClass: PrismaApiKeyRepository },
      { provide: AUTH_EPOCH, useValue: options.redis ? new RedisAuthEpoch(options.redis) : new MemoryAuthEpoch() },
      { provide: RATE_LIMITER, useValue: new FlexibleRateLimiter(options.redis) },
      { provide: HEALTH_CHECKS, useValue: options.healthChecks },
      { provide: SERVICE_PROXIES, useValue: proxies },
      { provide: CALLER_RESOLVER, useClass: ApiKeyCallerResolver },
      { provide: APP_GUARD, useClass: CallerGuard },
      { provide: PLATFORM_ADMIN_VERIFIER, useValue: new PlatformAdminKeyVerifier(options.settings.platformAdminKey) },
      AuthenticateApiKeyUseCase,
      BootstrapOrgUseCase,
      CreateApiKeyUseCase,
      CreateOrgUseCase,
      ListApiKeysUseCase,
      RevokeApiKeyUseCase,
      UpdateOrgUseCase,
      {
        provide: STATS_PARTS,
        useFactory: (ref: ModuleRef): StatsPartApi[] => [
          ...(options.stats?.parts ?? []),
          ...(options.stats?.tokens ?? []).map((token) => ({
            read: (...args: Parameters<StatsPartApi['read']>) => ref.get<StatsPartApi>(token, { strict: false }).read(...args),
          })),
        ],
        inject: [ModuleRef],
      },
      GetStatsUseCase,
    ];
    return {
      module: ApiGatewayModule,
      controllers: [
        OrgsHttpController,
        ApiKeysHttpController,
        HealthHttpController,
        StatsHttpController,
        ...(proxies.size > 0 ? [ServiceProxyHttpController] : []),
      ],
      providers,
      exports: [BootstrapOrgUseCase, GATEWAY_PRISMA, CALLER_RESOLVER],
    };
  }
}
