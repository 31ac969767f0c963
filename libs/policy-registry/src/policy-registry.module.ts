import { join } from 'node:path';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import type { ServiceDatabase } from '@igw/persistence';
import { INTENT_CARD_REPOSITORY } from './application/ports/intent-card.repository.port';
import { INTENTION_REPOSITORY } from './application/ports/intention.repository.port';
import { ArchiveIntentionUseCase } from './application/use-cases/archive-intention.use-case';
import { CreateIntentionUseCase } from './application/use-cases/create-intention.use-case';
import { DeleteIntentCardUseCase } from './application/use-cases/delete-intent-card.use-case';
import { GetIntentCardUseCase } from './application/use-cases/get-intent-card.use-case';
import { GetIntentionUseCase } from './application/use-cases/get-intention.use-case';
import { InstallIntentCardUseCase } from './application/use-cases/install-intent-card.use-case';
import { ListIntentCardsUseCase } from './application/use-cases/list-intent-cards.use-case';
import { ListIntentionsUseCase } from './application/use-cases/list-intentions.use-case';
import { PublishIntentionUseCase } from './application/use-cases/publish-intention.use-case';
import { IntentCardsHttpController } from './adapters/http/intent-cards.http.controller';
import { IntentionsHttpController } from './adapters/http/intentions.http.controller';
import { PrismaIntentCardRepository } from './adapters/prisma/prisma-intent-card.repository';
import { PrismaIntentionRepository } from './adapters/prisma/prisma-intention.repository';
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
}

export const POLICY_REGISTRY_USE_CASES = [
  CreateIntentionUseCase,
  ListIntentionsUseCase,
  GetIntentionUseCase,
  PublishIntentionUseCase,
  ArchiveIntentionUseCase,
  InstallIntentCardUseCase,
  ListIntentCardsUseCase,
  GetIntentCardUseCase,
  DeleteIntentCardUseCase,
];

/**
 * Intentions (= purposes) and intent cards: `/v1/intentions*`, `/v1/purposes*`,
 * `/v1/intent-cards*`. The app provides the global caller guard; routes only declare the scope
 * they need.
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
      { provide: INTENTION_REPOSITORY, useClass: PrismaIntentionRepository },
      { provide: INTENT_CARD_REPOSITORY, useClass: PrismaIntentCardRepository },
      ...POLICY_REGISTRY_USE_CASES,
    ];
    return {
      module: PolicyRegistryModule,
      controllers: [IntentionsHttpController, IntentCardsHttpController],
      providers,
      exports: [...POLICY_REGISTRY_USE_CASES],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    // The database itself (pool or PGlite) belongs to the app, which closes it.
    await this.prisma.$disconnect().catch(() => undefined);
  }
}
