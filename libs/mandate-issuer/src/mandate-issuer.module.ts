import {
  Inject,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { MANDATE_ISSUER_API } from '@igw/contracts';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { OUTBOX_NOTIFIER, VERSION_BOARD, type OutboxNotifier, type VersionBoard } from '@igw/events';
import type { ServiceDatabase } from '@igw/persistence';
import { MANDATE_REPOSITORY } from './application/ports/mandate.repository.port';
import { SIGNING_KEY_REPOSITORY } from './application/ports/signing-key.repository.port';
import { KEY_RING_OPTIONS, KeyRing, type KeyRingOptions } from './application/signing/key-ring';
import { MANDATE_SIGNING } from './application/signing/mandate-signing.port';
import { DispenseMandateUseCase } from './application/use-cases/dispense-mandate.use-case';
import { InspectMandateUseCase } from './application/use-cases/inspect-mandate.use-case';
import { RefreshMandateUseCase } from './application/use-cases/refresh-mandate.use-case';
import { RevokeMandateUseCase } from './application/use-cases/revoke-mandate.use-case';
import { RevocationsSinceUseCase } from './application/use-cases/revocations-since.use-case';
import { KeyEncryption } from './adapters/crypto/key-encryption';
import { RsaMandateSigning } from './adapters/crypto/rsa-mandate-signing';
import { InternalMandatesHttpController } from './adapters/http/internal-mandates.http.controller';
import { MandatesHttpController } from './adapters/http/mandates.http.controller';
import { InProcessMandateIssuerClient } from './adapters/in-process/in-process-mandate-issuer.client';
import { createMandateIssuerPrisma, MANDATE_ISSUER_DB, MANDATE_ISSUER_PRISMA, type MandateIssuerPrisma } from './adapters/prisma/mandate-issuer-prisma.client';
import { PrismaMandateRepository } from './adapters/prisma/prisma-mandate.repository';
import { PrismaSigningKeyRepository } from './adapters/prisma/prisma-signing-key.repository';

export interface MandateIssuerModuleOptions {
  /** The issuer's database, already migrated. */
  db: ServiceDatabase;
  notifier: OutboxNotifier;
  /**
   * Where verifiers look up the org revocation counters on every call: after each committed
   * revocation the issuer advances `revocationsKey(org)` to the org's new counter before it
   * answers. Embedded mode passes the process's MemoryVersionBoard, distributed mode a
   * RedisVersionBoard.
   */
  versionBoard: VersionBoard;
  /**
   * Serve `GET /internal/mandates/revocations` (distributed mode, where verifiers call over HTTP
   * with the internal token). Off by default: in embedded mode they use MANDATE_ISSUER_API
   * in-process, and the public port must not offer it.
   */
  internalRoutes?: boolean;
  /** The 32-byte key-encryption key sealing private keys and broker handles at rest. */
  kek: Buffer;
  /** CREDENTIAL_BROKERS (see `brokerProviders`). */
  brokers: Provider[];
  /** Where POLICY_REGISTRY_API comes from: the registry module (embedded) or an HTTP client provider (distributed). */
  imports?: ModuleMetadata['imports'];
  providers?: Provider[];
  keyRing?: KeyRingOptions;
  clock?: Clock;
}

export const MANDATE_ISSUER_USE_CASES = [DispenseMandateUseCase, RefreshMandateUseCase, RevokeMandateUseCase, InspectMandateUseCase, RevocationsSinceUseCase];

/**
 * Mandates (DESIGN 6.8): `/v1/mandate/dispense|refresh|revoke`, `GET /v1/mandate/{cred_id}` and
 * the public JWKS (and `/internal/mandates/revocations` when asked), plus MANDATE_ISSUER_API for
 * the verifiers that read revocations synchronously. The key ring creates the first signing key on an empty store at start-up and
 * rotates on schedule. The app provides the global caller guard.
 */
@Module({})
export class MandateIssuerModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(MANDATE_ISSUER_PRISMA) private readonly prisma: MandateIssuerPrisma,
    private readonly keyRing: KeyRing,
  ) {}

  static register(options: MandateIssuerModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: MANDATE_ISSUER_PRISMA, useFactory: () => createMandateIssuerPrisma(options.db) },
      { provide: MANDATE_ISSUER_DB, useValue: options.db },
      { provide: OUTBOX_NOTIFIER, useValue: options.notifier },
      { provide: VERSION_BOARD, useValue: options.versionBoard },
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: MANDATE_SIGNING, useFactory: () => new RsaMandateSigning(new KeyEncryption(options.kek)) },
      { provide: KEY_RING_OPTIONS, useValue: options.keyRing ?? {} },
      { provide: MANDATE_REPOSITORY, useClass: PrismaMandateRepository },
      { provide: SIGNING_KEY_REPOSITORY, useClass: PrismaSigningKeyRepository },
      ...options.brokers,
      ...(options.providers ?? []),
      KeyRing,
      ...MANDATE_ISSUER_USE_CASES,
      InProcessMandateIssuerClient,
      { provide: MANDATE_ISSUER_API, useExisting: InProcessMandateIssuerClient },
    ];
    return {
      module: MandateIssuerModule,
      imports: options.imports ?? [],
      controllers: [MandatesHttpController, ...(options.internalRoutes ? [InternalMandatesHttpController] : [])],
      providers,
      exports: [KeyRing, ...MANDATE_ISSUER_USE_CASES, InProcessMandateIssuerClient, MANDATE_ISSUER_API],
    };
  }

  /** The first key exists (and the ring is loaded) before the app listens. */
  async onApplicationBootstrap(): Promise<void> {
    await this.keyRing.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect().catch(() => undefined);
  }
}
