import { join } from 'node:path';
import { Inject, Module, type DynamicModule, type ModuleMetadata, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { APPROVAL_STATS_API, APPROVALS_API, STATS_PART_PATHS } from '@igw/contracts';
import { internalStatsController } from '@igw/http';
import { CLOCK, systemClock, type Clock } from '@igw/kernel';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '@igw/events';
import type { ServiceDatabase } from '@igw/persistence';
import { APPROVAL_REPOSITORY } from './application/ports/approval.repository.port';
import { ApproveApprovalUseCase } from './application/use-cases/approve-approval.use-case';
import { ConsumeApprovalUseCase } from './application/use-cases/consume-approval.use-case';
import { CreateApprovalUseCase } from './application/use-cases/create-approval.use-case';
import { DenyApprovalUseCase } from './application/use-cases/deny-approval.use-case';
import { ExpireApprovalsUseCase } from './application/use-cases/expire-approvals.use-case';
import { GetApprovalUseCase } from './application/use-cases/get-approval.use-case';
import { ListApprovalsUseCase } from './application/use-cases/list-approvals.use-case';
import { ReadApprovalStatsUseCase } from './application/use-cases/read-approval-stats.use-case';
import { ApprovalsHttpController } from './adapters/http/approvals.http.controller';
import { InternalApprovalsHttpController } from './adapters/http/internal-approvals.http.controller';
import { InProcessApprovalsClient } from './adapters/in-process/in-process-approvals.client';
import { APPROVALS_PRISMA, APPROVALS_SCHEMA_NAME, createApprovalsPrisma, type ApprovalsPrisma } from './adapters/prisma/approvals-prisma.client';
import { PrismaApprovalRepository } from './adapters/prisma/prisma-approval.repository';
import { ApprovalExpirySweeper, EXPIRY_SWEEP_OPTIONS } from './adapters/scheduler/approval-expiry.sweeper';

/** The PostgreSQL schema approvals uses unless the app opens its database under another name. */
export const APPROVALS_SCHEMA = 'approvals';
/** Hand-written migrations (`<timestamp>_<name>/migration.sql`); apply with `migrate(db, APPROVALS_MIGRATIONS)`. */
export const APPROVALS_MIGRATIONS = join(__dirname, '../prisma/migrations');
/** Default time between expiry sweeps. */
export const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

export interface ApprovalsModuleOptions {
  /** The approvals database, already migrated; its `schema` is where the tables are. */
  db: ServiceDatabase;
  /** Told after each commit that wrote outbox rows, so the relay publishes them at once. */
  notifier: OutboxNotifier;
  clock?: Clock;
  /** Time between expiry sweeps in ms (default 10 s); 0 turns the sweeper off. */
  sweepIntervalMs?: number;
  /**
   * Serve `POST /internal/approvals`, `POST /internal/approvals/consume` and `GET /internal/stats/approvals` (distributed mode,
   * where other services call over HTTP with the internal token). Off by default: in embedded
   * mode other services use APPROVALS_API in-process, and the public port must not offer these.
   */
  internalRoutes?: boolean;
  /**
   * Where POLICY_REGISTRY_API comes from (deciding with `remember` / `intent_label`, DESIGN 6.15):
   * embedded mode imports the registry module (in-process client), distributed mode provides an
   * HTTP client.
   */
  imports?: ModuleMetadata['imports'];
  providers?: Provider[];
}

export const APPROVALS_USE_CASES = [
  CreateApprovalUseCase,
  ListApprovalsUseCase,
  GetApprovalUseCase,
  ApproveApprovalUseCase,
  DenyApprovalUseCase,
  ConsumeApprovalUseCase,
  ExpireApprovalsUseCase,
  ReadApprovalStatsUseCase,
];

/**
 * Approval requests: `/v1/approvals*` (and `/internal/approvals*` when asked), the expiry
 * sweeper, and APPROVALS_API for the services that queue and use approvals. Deciding reads the
 * registry (POLICY_REGISTRY_API, from `imports` or `providers`). The app provides the global
 * caller guard; routes only declare the scope they need.
 */
@Module({})
export class ApprovalsModule implements OnApplicationShutdown {
  constructor(@Inject(APPROVALS_PRISMA) private readonly prisma: ApprovalsPrisma) {}

  static register(options: ApprovalsModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: APPROVALS_PRISMA, useFactory: () => createApprovalsPrisma(options.db) },
      { provide: APPROVALS_SCHEMA_NAME, useValue: options.db.schema },
      { provide: OUTBOX_NOTIFIER, useValue: options.notifier },
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: APPROVAL_REPOSITORY, useClass: PrismaApprovalRepository },
      { provide: EXPIRY_SWEEP_OPTIONS, useValue: { intervalMs: options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS } },
      ...APPROVALS_USE_CASES,
      ApprovalExpirySweeper,
      InProcessApprovalsClient,
      { provide: APPROVALS_API, useExisting: InProcessApprovalsClient },
      { provide: APPROVAL_STATS_API, useExisting: ReadApprovalStatsUseCase },
      ...(options.providers ?? []),
    ];
    return {
      module: ApprovalsModule,
      imports: options.imports ?? [],
      controllers: [
        ApprovalsHttpController,
        ...(options.internalRoutes ? [InternalApprovalsHttpController, internalStatsController(STATS_PART_PATHS.approvals, APPROVAL_STATS_API)] : []),
      ],
      providers,
      exports: [...APPROVALS_USE_CASES, InProcessApprovalsClient, APPROVALS_API, APPROVAL_STATS_API],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    // The sweeper stopped in onModuleDestroy, before this. The database itself (pool or PGlite)
    // belongs to the app, which closes it.
    await this.prisma.$disconnect().catch(() => undefined);
  }
}
