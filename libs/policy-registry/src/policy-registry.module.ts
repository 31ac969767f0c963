import { join } from 'node:path';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { POLICY_REGISTRY_API } from '@igw/contracts';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { OUTBOX_NOTIFIER, VERSION_BOARD, type OutboxNotifier, type VersionBoard } from '@igw/events';
import type { ServiceDatabase } from '@igw/persistence';
import { INTENT_CARD_REPOSITORY } from './application/ports/intent-card.repository.port';
import { INTENTION_REPOSITORY } from './application/ports/intention.repository.port';
import { INTENTION_EXAMPLE_REPOSITORY } from './application/ports/intention-example.repository.port';
import { AddIntentionExampleUseCase } from './application/use-cases/add-intention-example.use-case';
import { ForgetTaughtExamplesUseCase } from './application/use-cases/forget-taught-examples.use-case';
import { ListIntentionExamplesUseCase } from './application/use-cases/list-intention-examples.use-case';
import { RemoveIntentionExampleUseCase } from './application/use-cases/remove-intention-example.use-case';
import { TeachIntentionExamplesUseCase } from './application/use-cases/teach-intention-examples.use-case';
import { PreviewIntentCardUseCase } from './application/use-cases/preview-intent-card.use-case';
import { PreviewIntentionChangesUseCase } from './application/use-cases/preview-intention-changes.use-case';
import { UpdateIntentionUseCase } from './application/use-cases/update-intention.use-case';
import { ArchiveIntentionUseCase } from './application/use-cases/archive-intention.use-case';
import { CreateIntentionUseCase } from './application/use-cases/create-intention.use-case';
import { DeleteIntentCardUseCase } from './application/use-cases/delete-intent-card.use-case';
import { GetActiveIntentionsUseCase } from './application/use-cases/get-active-intentions.use-case';
import { GetIntentCardUseCase } from './application/use-cases/get-intent-card.use-case';
import { GetIntentCardsSnapshotUseCase } from './application/use-cases/get-intent-cards-snapshot.use-case';
import { GetIntentionUseCase } from './application/use-cases/get-intention.use-case';
import { InstallIntentCardUseCase } from './application/use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from './application/use-cases/list-intent-cards.use-case';
import { ListIntentionsUseCase } from './application/use-cases/list-intentions.use-case';
import { ListStatefulOrgsUseCase } from './application/use-cases/list-stateful-orgs.use-case';
import { PublishIntentionUseCase } from './application/use-cases/publish-intention.use-case';
import { IntentCardsHttpController } from './adapters/http/intent-cards.http.controller';
import { IntentionsHttpController } from './adapters/http/intentions.http.controller';
import { IntentionExamplesHttpController } from './adapters/http/intention-examples.http.controller';
import { InternalIntentionsHttpController } from './adapters/http/internal-intentions.http.controller';
import { InProcessPolicyRegistryClient } from './adapters/in-process/in-process-policy-registry.client';
import { PrismaIntentCardRepository } from './adapters/prisma/prisma-intent-card.repository';
import { PrismaIntentionRepository } from './adapters/prisma/prisma-intention.repository';
import { PrismaIntentionExampleRepository } from './adapters/prisma/prisma-intention-example.repository';
import { createRegistryPrisma, REGISTRY_PRISMA, REGISTRY_SCHEMA_NAME, type RegistryPrisma } from './adapters/prisma/registry-prisma.client';

/** The PostgreSQL schema the registry uses unless the app opens its database under another name. */
export const POLICY_REGISTRY_SCHEMA = 'policy_registry';
/** Hand-written migrations (`<timestamp>_<name>/migration.sql`); apply with `migrate(db, POLICY_REGISTRY_MIGRATIONS)`. */
export const POLICY_REGISTRY_MIGRATIONS = join(__dirname, '../prisma/migrations');

export interface PolicyRegistryModuleOptions {
  /** The registry's database, already migrated; its `schema` is where the tables are. */
  db: ServiceDatabase;
  /** Told after each commit that wrote outbox rows, so the relay publishes them at once. */
  notifier: OutboxNotifier;
  clock?: Clock;
  /**
   * Where readers look up the org counters on every call: after each committed change the
   * registry advances `intentionsKey(org)` / `cardsKey(org)` to the new `org_version` before it
   * answers. Embedded mode passes the process's MemoryVersionBoard, distributed mode a
   * RedisVersionBoard. Without one nothing is advanced (readers then rely on events alone).
   */
  versionBoard?: VersionBoard;
  /**
   * Serve `GET /internal/intentions/active`, `GET /internal/intent-cards[/{id}]` and
   * `/internal/intention-examples/teach|taught/{approval_id}` (distributed mode, where other services call over
   * HTTP with the internal token). Off by default: in embedded mode other services use
   * POLICY_REGISTRY_API in-process, and the public port must not offer it.
   */
  internalRoutes?: boolean;
}

export const POLICY_REGISTRY_USE_CASES = [
  CreateIntentionUseCase,
  ListIntentionsUseCase,
  GetIntentionUseCase,
  PublishIntentionUseCase,
  ArchiveIntentionUseCase,
  UpdateIntentionUseCase,
  AddIntentionExampleUseCase,
  ListIntentionExamplesUseCase,
  RemoveIntentionExampleUseCase,
  TeachIntentionExamplesUseCase,
  PreviewIntentionChangesUseCase,
  PreviewIntentCardUseCase,
  ForgetTaughtExamplesUseCase,
  InstallIntentCardUseCase,
  ListIntentCardsUseCase,
  GetIntentCardUseCase,
  DeleteIntentCardUseCase,
  GetActiveIntentionsUseCase,
  GetIntentCardsSnapshotUseCase,
  ListStatefulOrgsUseCase,
];

/**
 * Intentions (= purposes) and intent cards: `/v1/intentions*`, `/v1/purposes*`,
 * `/v1/intent-cards*` (and `/internal/intentions/active`, `/internal/intent-cards*` when asked), plus POLICY_REGISTRY_API
 * for the services that read the registry synchronously. The app provides the global caller
 * guard; routes only declare the scope they need.
 */
@Module({})
export class PolicyRegistryModule implements OnApplicationShutdown {
  constructor(@Inject(REGISTRY_PRISMA) private readonly prisma: RegistryPrisma) {}

  static register(options: PolicyRegistryModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: REGISTRY_PRISMA, useFactory: () => createRegistryPrisma(options.db) },
      { provide: REGISTRY_SCHEMA_NAME, useValue: options.db.schema },
      { provide: OUTBOX_NOTIFIER, useValue: options.notifier },
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: VERSION_BOARD, useValue: options.versionBoard ?? null },
      { provide: INTENTION_REPOSITORY, useClass: PrismaIntentionRepository },
      { provide: INTENTION_EXAMPLE_REPOSITORY, useClass: PrismaIntentionExampleRepository },
      { provide: INTENT_CARD_REPOSITORY, useClass: PrismaIntentCardRepository },
      ...POLICY_REGISTRY_USE_CASES,
      InProcessPolicyRegistryClient,
      { provide: POLICY_REGISTRY_API, useExisting: InProcessPolicyRegistryClient },
    ];
    return {
      module: PolicyRegistryModule,
      controllers: [
        IntentionsHttpController,
        IntentionExamplesHttpController,
        IntentCardsHttpController,
        ...(options.internalRoutes ? [InternalIntentionsHttpController] : []),
      ],
      providers,
      exports: [...POLICY_REGISTRY_USE_CASES, InProcessPolicyRegistryClient, POLICY_REGISTRY_API],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    // The database itself (pool or PGlite) belongs to the app, which closes it.
    await this.prisma.$disconnect().catch(() => undefined);
  }
}
