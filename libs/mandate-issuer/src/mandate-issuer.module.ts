import { Inject, Module, type DynamicModule, type ModuleMetadata, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import type { ServiceDatabase } from '@igw/persistence';
import { MANDATE_REPOSITORY } from './application/ports/mandate.repository.port';
import { SIGNING_KEY_REPOSITORY } from './application/ports/signing-key.repository.port';
import { KEY_RING_OPTIONS, KeyRing, type KeyRingOptions } from './application/signing/key-ring';
import { MANDATE_SIGNING } from './application/signing/mandate-signing.port';
import { DispenseMandateUseCase } from './application/use-cases/dispense-mandate.use-case';
import { InspectMandateUseCase } from './application/use-cases/inspect-mandate.use-case';
import { RefreshMandateUseCase } from './application/use-cases/refresh-mandate.use-case';
import { RevokeMandateUseCase } from './application/use-cases/revoke-mandate.use-case';
import { KeyEncryption } from './adapters/crypto/key-encryption';
import { RsaMandateSigning } from './adapters/crypto/rsa-mandate-signing';
import { MandatesHttpController } from './adapters/http/mandates.http.controller';
import { createMandateIssuerPrisma, MANDATE_ISSUER_DB, MANDATE_ISSUER_PRISMA, type MandateIssuerPrisma } from './adapters/prisma/mandate-issuer-prisma.client';
import { PrismaMandateRepository } from './adapters/prisma/prisma-mandate.repository';
import { PrismaSigningKeyRepository } from './adapters/prisma/prisma-signing-key.repository';

export interface MandateIssuerModuleOptions {
  /** The issuer's database, already migrated. */
  db: ServiceDatabase;
  notifier: OutboxNotifier;
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

export const MANDATE_ISSUER_USE_CASES = [DispenseMandateUseCase, RefreshMandateUseCase, RevokeMandateUseCase, InspectMandateUseCase];

/**
 * Mandates (DESIGN 6.8): `/v1/mandate/dispense|refresh|revoke`, `GET /v1/mandate/{cred_id}` and
 * the public JWKS. The key ring creates the first signing key on an empty store at start-up and
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
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: MANDATE_SIGNING, useFactory: () => new RsaMandateSigning(new KeyEncryption(options.kek)) },
      { provide: KEY_RING_OPTIONS, useValue: options.keyRing ?? {} },
      { provide: MANDATE_REPOSITORY, useClass: PrismaMandateRepository },
      { provide: SIGNING_KEY_REPOSITORY, useClass: PrismaSigningKeyRepository },
      ...options.brokers,
      ...(options.providers ?? []),
      KeyRing,
      ...MANDATE_ISSUER_USE_CASES,
    ];
    return {
      module: MandateIssuerModule,
      imports: options.imports ?? [],
      controllers: [MandatesHttpController],
      providers,
      exports: [KeyRing, ...MANDATE_ISSUER_USE_CASES],
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
