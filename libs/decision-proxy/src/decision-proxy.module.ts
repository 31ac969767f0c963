import { join } from 'node:path';
import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationBootstrap,
  type Provider,
} from '@nestjs/common';
import { CARD_REPLAY_API, DECISION_STATS_API, STATS_PART_PATHS } from '@igw/contracts';
import { CLOCK, DEFAULT_CALL_RETENTION, STAT_COUNTS_READER, systemClock, type CallRetention, type Clock, type PeriodicTask } from '@igw/kernel';
import { internalStatsController } from '@igw/http';
import { EVENT_BUS, VERSION_BOARD, type OutboxNotifier, type ReadModelHostOptions } from '@igw/events';
import { DEAD_LETTERS, SqlDeadLetters, StatCountsTable, statCountsUpkeepTask, type ServiceDatabase } from '@igw/persistence';
import { DEFAULT_ACR_LEVELS } from './domain';
import { DECISION_REPOSITORY } from './application/ports/decision.repository.port';
import { DECISION_CALLS } from './application/ports/decision-calls.port';
import { DECISION_CALL_PURGE_INTERVAL, DECISION_CALL_RETENTION } from './application/retention/call-retention.options';
import { PurgeExpiredDecisionCallsUseCase } from './application/use-cases/purge-expired-decision-calls.use-case';
import { DecisionCallRetentionPurger } from './adapters/scheduler/decision-call-retention.purger';
import { SqlDecisionCalls } from './adapters/sql/sql-decision-calls';
import { HEADER_SEALER, type HeaderSealer } from './application/mcp-header-sealing';
import { MCP_SERVER_REPOSITORY } from './application/ports/mcp-server.repository.port';
import { MCP_UPSTREAMS } from './application/ports/mcp-upstreams.port';
import { MCP_SESSION_STORE, type McpSessionStore } from './application/ports/mcp-session.store.port';
import { MemoryMcpSessionStore } from './adapters/memory/memory-mcp-session.store';
import { UPSTREAM_DESTINATION } from './application/ports/upstream-destination.port';
import { RegisteredMcpUpstreams } from './application/registered-mcp-upstreams';
import { IntentCardsReadModel } from './application/read-model/intent-cards.read-model';
import { RevocationsReadModel } from './application/read-model/revocations.read-model';
import { DECISION_ENGINE_OPTIONS, ToolCallDecisionGate, type DecisionEngineSettings } from './application/decision-gate/tool-call-decision-gate';
import { GetDecisionUseCase } from './application/use-cases/get-decision.use-case';
import { ListDecisionsUseCase } from './application/use-cases/list-decisions.use-case';
import { ListReviewsUseCase } from './application/use-cases/list-reviews.use-case';
import { ReadDecisionStatsUseCase } from './application/use-cases/read-decision-stats.use-case';
import { CARD_REPLAY_DEADLINE_MS, DEFAULT_CARD_REPLAY_DEADLINE_MS, ReplayCardDraftUseCase } from './application/use-cases/replay-card-draft.use-case';
import { InternalReplaysHttpController } from './adapters/http/internal-replays.http.controller';
import { ResolveReviewUseCase } from './application/use-cases/resolve-review.use-case';
import { JWKS_SOURCE, type JwksSource } from './application/verification/jwks-source.port';
import { MANDATE_VERIFIER } from './application/verification/mandate-verifier.port';
import { InMemoryRevocationSet, REVOCATION_SET } from './application/verification/revocation-set';
import { PROXY_EVENTS_GROUP, ProxyEventsConsumer } from './adapters/events/proxy-events.consumer';
import { McpProxyHttpController } from './adapters/http/mcp-proxy.http.controller';
import { McpGatewayHttpController } from './adapters/mcp/mcp-gateway.http.controller';
import { MCP_SESSION_OPTIONS, McpSessions, type McpSessionOptions } from './adapters/mcp/mcp-sessions';
import { upstreamDispatcher } from './adapters/mcp/upstream-dispatcher';
import { EnforceMcpToolCallUseCase } from './application/use-cases/enforce-mcp-tool-call.use-case';
import { ListMcpToolsUseCase } from './application/use-cases/list-mcp-tools.use-case';
import { OpenMcpUpstreamUseCase } from './application/use-cases/open-mcp-upstream.use-case';
import { MCP_SERVERS_USE_CASES, McpServersHttpController } from './adapters/http/mcp-servers.http.controller';
import { OutboundUpstreamDestination } from './adapters/http/outbound-upstream-destination';
import { JoseMandateVerifier, type JoseMandateVerifierOptions } from './adapters/jose/jose-mandate.verifier';
import { replayLegacyJournal } from './adapters/legacy/legacy-journal.replay';
import { SqlDecisionRepository } from './adapters/sql/sql-decision.repository';
import { SqlMcpServerRepository } from './adapters/sql/sql-mcp-server.repository';

export const DECISION_PROXY_SCHEMA = 'decision_proxy';
/** This file is `src/`, the migrations are `prisma/migrations` of the lib (copied next to dist by the build). */
export const DECISION_PROXY_MIGRATIONS = join(__dirname, '../prisma/migrations');

/**
 * The read models are cards and revocations: `bus` delivers their events, the registry (cards)
 * and the issuer (revocations) advance their per-org counters on `versionBoard`.
 */
export interface DecisionProxyModuleOptions extends ReadModelHostOptions {
  /** The proxy's database, already migrated (decision records, review queue, outbox). */
  db: ServiceDatabase;
  notifier: OutboxNotifier;
  /** Consumer group of this process's read models: unique per replica. */
  readModelGroup: string;
  /** How long one what-if replay of a card may run (REPLAY_DEADLINE_MS); default 10 s. */
  replayDeadlineMs?: number;
  /** Where decisions the store refuses are set aside (default: the schema's own, unlogged). */
  deadLetters?: SqlDeadLetters;
  /** Where a version before 0.7 may have left journaled decisions; stored at start, then removed. */
  legacyJournalDir?: string;
  acrLevels?: readonly string[];
  /** Seals the headers of registered MCP upstreams at rest (KeyEncryption under MCP_UPSTREAMS_KEK). */
  headerSealer: HeaderSealer;
  /** MCP_UPSTREAMS_ALLOW_PRIVATE: upstreams on private, loopback and link-local addresses (dev and tests). */
  allowPrivateUpstreams?: boolean;
  verifier?: JoseMandateVerifierOptions;
  /**
   * Where POLICY_REGISTRY_API, APPROVALS_API, MANDATE_ISSUER_API and JWKS_SOURCE (the issuer's
   * public keys) come from: the services' modules in embedded mode, HTTP clients in distributed mode.
   */
  imports?: ModuleMetadata['imports'];
  providers?: Provider[];
  clock?: Clock;
  /** How long decided calls are kept (CALL_RETENTION_DAYS, CALL_RETENTION_MAX_BYTES); default 7 days, 64 KiB. */
  callRetention?: CallRetention;
  /** Milliseconds between purges of kept calls in this process (and one at start); 0 or absent: never. */
  callPurgeIntervalMs?: number;
  /** The MCP enforcement proxy's sessions (`{base}/mcp/{name}`): upstream dispatcher, idle time, cap. */
  mcp?: McpSessionOptions;
  /** Where MCP sessions live: Redis when distributed (every replica), memory by default (embedded). */
  mcpSessionStore?: McpSessionStore;
  /** Serve `GET /internal/stats/decisions` (distributed mode: the gateway's GET /v1/stats reads it over HTTP). */
  internalRoutes?: boolean;
}

/**
 * The mandate path's decision point: `POST /v1/mcp-proxy/call` (DESIGN 6.9), the review queue of
 * deferred calls, the decision records and the registry of upstream MCP servers (`/v1/mcp-servers`,
 * DESIGN 6.13; MCP_UPSTREAMS is what the MCP endpoint resolves them through). The app provides the global caller guard.
 */
const MODULE_OPTIONS = Symbol('DECISION_PROXY_MODULE_OPTIONS');
const STAT_COUNTS_UPKEEP = Symbol('DECISION_PROXY_STAT_COUNTS_UPKEEP');

@Module({})
export class DecisionProxyModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DecisionProxy');

  constructor(
    @Inject(DECISION_REPOSITORY) private readonly decisions: SqlDecisionRepository,
    @Inject(DEAD_LETTERS) private readonly deadLetters: SqlDeadLetters,
    @Inject(MODULE_OPTIONS) private readonly options: Pick<DecisionProxyModuleOptions, 'readModels' | 'legacyJournalDir'>,
    private readonly cards: IntentCardsReadModel,
    private readonly revocations: RevocationsReadModel,
    @Inject(STAT_COUNTS_UPKEEP) private readonly statCountsUpkeep: PeriodicTask,
  ) {}

  static register(options: DecisionProxyModuleOptions): DynamicModule {
    const clock = options.clock ?? systemClock;
    const callRetention = options.callRetention ?? DEFAULT_CALL_RETENTION;
    const settings: DecisionEngineSettings = { acrLevels: options.acrLevels ?? DEFAULT_ACR_LEVELS, callRetention };
    const deadLetters = options.deadLetters ?? new SqlDeadLetters(options.db);
    const repository = new SqlDecisionRepository(options.db, options.notifier, deadLetters);
    const revocationSet = new InMemoryRevocationSet(clock);
    const statCounts = new StatCountsTable(options.db);
    const providers: Provider[] = [
      { provide: CLOCK, useValue: clock },
      { provide: EVENT_BUS, useValue: options.bus },
      { provide: VERSION_BOARD, useValue: options.versionBoard },
      { provide: PROXY_EVENTS_GROUP, useValue: options.readModelGroup },
      { provide: DECISION_ENGINE_OPTIONS, useValue: settings },
      { provide: MCP_SESSION_OPTIONS, useValue: { dispatcher: upstreamDispatcher(options.allowPrivateUpstreams === true), ...options.mcp } },
      { provide: MCP_SESSION_STORE, useValue: options.mcpSessionStore ?? new MemoryMcpSessionStore() },
      { provide: DECISION_REPOSITORY, useValue: repository },
      { provide: DEAD_LETTERS, useValue: deadLetters },
      { provide: DECISION_CALLS, useValue: new SqlDecisionCalls(options.db) },
      { provide: DECISION_CALL_RETENTION, useValue: callRetention },
      { provide: DECISION_CALL_PURGE_INTERVAL, useValue: options.callPurgeIntervalMs ?? 0 },
      { provide: MODULE_OPTIONS, useValue: { readModels: options.readModels, legacyJournalDir: options.legacyJournalDir } },
      { provide: InMemoryRevocationSet, useValue: revocationSet },
      { provide: REVOCATION_SET, useValue: revocationSet },
      {
        provide: MANDATE_VERIFIER,
        useFactory: (jwks: JwksSource) => new JoseMandateVerifier(jwks, revocationSet, { clock, ...options.verifier }),
        inject: [JWKS_SOURCE],
      },
      { provide: HEADER_SEALER, useValue: options.headerSealer },
      { provide: MCP_SERVER_REPOSITORY, useValue: new SqlMcpServerRepository(options.db) },
      { provide: UPSTREAM_DESTINATION, useValue: new OutboundUpstreamDestination({ allowPrivate: options.allowPrivateUpstreams === true }) },
      { provide: MCP_UPSTREAMS, useClass: RegisteredMcpUpstreams },
      { provide: STAT_COUNTS_READER, useValue: statCounts },
      { provide: STAT_COUNTS_UPKEEP, useValue: statCountsUpkeepTask(statCounts, clock, new Logger('DecisionProxy')) },
      ReadDecisionStatsUseCase,
      { provide: DECISION_STATS_API, useExisting: ReadDecisionStatsUseCase },
      { provide: CARD_REPLAY_DEADLINE_MS, useValue: options.replayDeadlineMs ?? DEFAULT_CARD_REPLAY_DEADLINE_MS },
      ReplayCardDraftUseCase,
      { provide: CARD_REPLAY_API, useExisting: ReplayCardDraftUseCase },
      ...(options.providers ?? []),
      IntentCardsReadModel,
      RevocationsReadModel,
      ProxyEventsConsumer,
      ToolCallDecisionGate,
      ListReviewsUseCase,
      ResolveReviewUseCase,
      GetDecisionUseCase,
      ListDecisionsUseCase,
      PurgeExpiredDecisionCallsUseCase,
      DecisionCallRetentionPurger,
      ListMcpToolsUseCase,
      EnforceMcpToolCallUseCase,
      OpenMcpUpstreamUseCase,
      McpSessions,
      ...MCP_SERVERS_USE_CASES,
    ];
    return {
      module: DecisionProxyModule,
      imports: options.imports ?? [],
      controllers: [
        McpProxyHttpController,
        McpServersHttpController,
        McpGatewayHttpController,
        ...(options.internalRoutes ? [internalStatsController(STATS_PART_PATHS.decisions, DECISION_STATS_API), InternalReplaysHttpController] : []),
      ],
      providers,
      exports: [ToolCallDecisionGate, DECISION_REPOSITORY, MCP_UPSTREAMS, DECISION_STATS_API, ReplayCardDraftUseCase, CARD_REPLAY_API],
    };
  }

  /**
   * Loads cards and revocations of every org that has any, in the background (the process reports
   * ready once they are in; calls meanwhile load what they need, or fail closed), and stores what
   * an older version's journal left.
   */
  async onApplicationBootstrap(): Promise<void> {
    this.statCountsUpkeep.start();
    for (const model of [this.cards.model, this.revocations.model]) {
      this.options.readModels?.track(model);
      void model.warmUntilReady(this.logger);
    }
    if (this.options.legacyJournalDir) {
      const replayed = await replayLegacyJournal(this.options.legacyJournalDir, this.decisions, this.deadLetters);
      if (replayed.stored + replayed.setAside > 0 || !replayed.complete) {
        this.logger.warn(
          `legacy decision journal: ${replayed.stored} stored, ${replayed.setAside} set aside${replayed.complete ? '' : '; the rest stays for the next start'}`,
        );
      }
    }
  }

  /** Answered decisions are in the store already; this waits for the ones being committed. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.statCountsUpkeep.stop();
    await this.decisions.drain();
  }
}
