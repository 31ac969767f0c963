import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { EVALUATION_STATS_API, INTENT_EVALUATOR_API, STATS_PART_PATHS, type IntentEvaluatorApi } from '@igw/contracts';
import { CLOCK, STAT_COUNTS_READER, systemClock, type Clock, type PeriodicTask } from '@igw/kernel';
import { internalStatsController } from '@igw/http';
import { EVENT_BUS, OUTBOX_NOTIFIER, VERSION_BOARD, type OutboxNotifier, type ReadModelHostOptions, type ReadModelTracker } from '@igw/events';
import { DEAD_LETTERS, SqlDeadLetters, StatCountsTable, statCountsUpkeepTask, type ServiceDatabase } from '@igw/persistence';
import { ClassificationCascade } from './application/classification/classification-cascade';
import { GRANT_SIGNER, GRANT_VERIFIER } from './application/grants/grant.port';
import { INTENT_EVENT_STORE, KEPT_CALLS, RECORDED_CALLS } from './application/ports/intent-event.repository.port';
import { CALL_PURGE_INTERVAL, CALL_RETENTION } from './application/retention/call-retention.options';
import { PurgeExpiredCallsUseCase } from './application/use-cases/purge-expired-calls.use-case';
import { DEFAULT_CALL_RETENTION, type CallRetention } from './domain/evaluation/retained-call';
import { CallRetentionPurger } from './adapters/scheduler/call-retention.purger';
import { SqlKeptCalls } from './adapters/prisma/sql-kept-calls';
import { ActiveIntentionsReadModel } from './application/read-model/active-intentions.read-model';
import { EvaluateIntentUseCase } from './application/use-cases/evaluate-intent.use-case';
import { ReadEvaluationStatsUseCase } from './application/use-cases/read-evaluation-stats.use-case';
import { ListIntentHistoryUseCase } from './application/use-cases/list-intent-history.use-case';
import { VerifyGrantUseCase } from './application/use-cases/verify-grant.use-case';
import { DEFAULT_REPLAY_DEADLINE_MS, REPLAY_DEADLINE_MS, ReplayIntentionChangesUseCase } from './application/use-cases/replay-intention-changes.use-case';
import { ReplaysHttpController } from './adapters/http/replays.http.controller';
import { IntentionEventsConsumer, INTENTION_EVENTS_GROUP } from './adapters/events/intention-events.consumer';
import { GrantsHttpController } from './adapters/http/grants.http.controller';
import { IntentEvaluationHttpController } from './adapters/http/intent-evaluation.http.controller';
import { JoseGrantService, type GrantKeyInput } from './adapters/jose/jose-grant.service';
import { createEvaluatorPrisma, EVALUATOR_DB, EVALUATOR_PRISMA, type EvaluatorPrisma } from './adapters/prisma/evaluator-prisma.client';
import { PrismaIntentEventStore } from './adapters/prisma/prisma-intent-event.store';

/** The read model is the active intentions: `bus` delivers policy-registry events, the registry advances each org's intentions version on `versionBoard`. */
export interface IntentEvaluatorModuleOptions extends ReadModelHostOptions {
  /** The evaluator's database, already migrated; its `schema` is where the tables are. */
  db: ServiceDatabase;
  /** Told after each commit that wrote outbox rows, so the relay publishes them at once. */
  notifier: OutboxNotifier;
  /** Where evaluations the store refuses are set aside (default: the schema's own, unlogged). */
  deadLetters?: SqlDeadLetters;
  /** Consumer group of this process's read model: unique per replica, since every replica needs every event. */
  readModelGroup: string;
  /** The Ed25519 key grants are signed with (shared by every replica). */
  grantKey: GrantKeyInput;
  /**
   * Where POLICY_REGISTRY_API and APPROVALS_API come from: embedded mode imports the registry and
   * approvals modules (in-process clients), distributed mode provides HTTP clients.
   */
  imports?: ModuleMetadata['imports'];
  providers?: Provider[];
  /** The embedding / llm layers and cascade options (see `classificationProviders`). */
  classification?: Provider[];
  clock?: Clock;
  /** How long evaluated calls are kept (DESIGN 6.16); default 7 days, 64 KiB. */
  callRetention?: CallRetention;
  /** Purge calls past the window in this process every this many ms (and at start); 0 or unset: never here. */
  callPurgeIntervalMs?: number;
  /** How long one what-if replay may run (REPLAY_DEADLINE_MS); default 10 s. */
  replayDeadlineMs?: number;
  /** Serve `GET /internal/stats/evaluations` (distributed mode: the gateway's GET /v1/stats reads it over HTTP). */
  internalRoutes?: boolean;
}

/**
 * The legacy enforcement path: `POST /v1/intent/evaluate`, `GET /v1/intent/history`,
 * `POST /v1/grants/verify`, `POST /v1/replays` (what-if replay, policy_write). Keeps the org's active intentions in memory (exact: version board +
 * registry snapshot + events) and records every evaluation before answering. The app provides the
 * global caller guard; every route here but replay is open to any valid key (read_only included).
 */
const READ_MODELS = Symbol('EVALUATOR_READ_MODELS');
const STAT_COUNTS_UPKEEP = Symbol('EVALUATOR_STAT_COUNTS_UPKEEP');

@Module({})
export class IntentEvaluatorModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(EVALUATOR_PRISMA) private readonly prisma: EvaluatorPrisma,
    @Inject(READ_MODELS) private readonly tracker: ReadModelTracker | null,
    private readonly intentions: ActiveIntentionsReadModel,
    @Inject(STAT_COUNTS_UPKEEP) private readonly statCountsUpkeep: PeriodicTask,
  ) {}

  static register(options: IntentEvaluatorModuleOptions): DynamicModule {
    const clock = options.clock ?? systemClock;
    const statCounts = new StatCountsTable(options.db);
    const providers: Provider[] = [
      { provide: EVALUATOR_PRISMA, useFactory: () => createEvaluatorPrisma(options.db) },
      { provide: EVALUATOR_DB, useValue: options.db },
      { provide: DEAD_LETTERS, useValue: options.deadLetters ?? new SqlDeadLetters(options.db) },
      { provide: OUTBOX_NOTIFIER, useValue: options.notifier },
      { provide: EVENT_BUS, useValue: options.bus },
      { provide: VERSION_BOARD, useValue: options.versionBoard },
      { provide: INTENTION_EVENTS_GROUP, useValue: options.readModelGroup },
      { provide: CLOCK, useValue: clock },
      { provide: READ_MODELS, useValue: options.readModels ?? null },
      { provide: JoseGrantService, useFactory: () => new JoseGrantService(options.grantKey, clock) },
      { provide: GRANT_SIGNER, useExisting: JoseGrantService },
      { provide: GRANT_VERIFIER, useExisting: JoseGrantService },
      { provide: INTENT_EVENT_STORE, useClass: PrismaIntentEventStore },
      { provide: SqlKeptCalls, useFactory: () => new SqlKeptCalls(options.db) },
      { provide: KEPT_CALLS, useExisting: SqlKeptCalls },
      { provide: RECORDED_CALLS, useExisting: SqlKeptCalls },
      { provide: REPLAY_DEADLINE_MS, useValue: options.replayDeadlineMs ?? DEFAULT_REPLAY_DEADLINE_MS },
      { provide: CALL_RETENTION, useValue: options.callRetention ?? DEFAULT_CALL_RETENTION },
      { provide: CALL_PURGE_INTERVAL, useValue: options.callPurgeIntervalMs ?? 0 },
      PurgeExpiredCallsUseCase,
      CallRetentionPurger,
      { provide: STAT_COUNTS_READER, useValue: statCounts },
      { provide: STAT_COUNTS_UPKEEP, useValue: statCountsUpkeepTask(statCounts, clock, new Logger('IntentEvaluator')) },
      ReadEvaluationStatsUseCase,
      { provide: EVALUATION_STATS_API, useExisting: ReadEvaluationStatsUseCase },
      ...(options.classification ?? []),
      ...(options.providers ?? []),
      ActiveIntentionsReadModel,
      ClassificationCascade,
      IntentionEventsConsumer,
      EvaluateIntentUseCase,
      ListIntentHistoryUseCase,
      VerifyGrantUseCase,
      ReplayIntentionChangesUseCase,
      // Other modules of the process (the MCP proxy's legacy path) evaluate as the caller would.
      {
        provide: INTENT_EVALUATOR_API,
        useFactory: (evaluate: EvaluateIntentUseCase): IntentEvaluatorApi => ({
          evaluate: (caller, request) => evaluate.execute({ orgId: caller.orgId, keyId: caller.keyId, scope: 'read_only' }, request),
        }),
        inject: [EvaluateIntentUseCase],
      },
    ];
    return {
      module: IntentEvaluatorModule,
      imports: options.imports ?? [],
      controllers: [
        IntentEvaluationHttpController,
        GrantsHttpController,
        ReplaysHttpController,
        ...(options.internalRoutes ? [internalStatsController(STATS_PART_PATHS.evaluations, EVALUATION_STATS_API)] : []),
      ],
      providers,
      exports: [EvaluateIntentUseCase, VerifyGrantUseCase, ActiveIntentionsReadModel, INTENT_EVALUATOR_API, EVALUATION_STATS_API],
    };
  }

  /** Loads every org's active intentions in the background; the process reports ready once they are in. */
  onApplicationBootstrap(): void {
    this.tracker?.track(this.intentions.model);
    void this.intentions.model.warmUntilReady(new Logger('IntentEvaluator'));
    this.statCountsUpkeep.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.statCountsUpkeep.stop();
    // PrismaIntentEventStore drained in beforeApplicationShutdown; the database belongs to the app.
    await this.prisma.$disconnect().catch(() => undefined);
  }
}
