import { defined } from '@igw/kernel';
import type { Logger } from 'pino';
import Redis from 'ioredis';
import type { BaseConfig } from '@igw/config';
import { InProcessEventBus, KafkaEventBus, OutboxRelay, type EventBus, type OutboxNotifier } from '@igw/events';
import {
  classifyWriteError,
  databaseReady,
  migrate,
  openEmbeddedDatabase,
  openPostgresDatabase,
  SqlDeadLetters,
  SqlOutboxSource,
  type ServiceDatabase,
} from '@igw/persistence';
import { processMetrics, serviceUrls, type CheckResult, type ReadinessCheck } from '@igw/http';

/** What a service module needs from its process: its database schema and its outbox relay. */
export interface ServiceInfra {
  db: ServiceDatabase;
  relay: OutboxRelay;
  notifier: OutboxNotifier;
  /** Where the schema's poison records are set aside (and counted for health). */
  deadLetters: SqlDeadLetters;
  /** The schema's outbox as health reads it (backlog and age). */
  outbox: SqlOutboxSource;
}

export class StartupError extends Error {}

/**
 * Opens the service's schema (PGlite when embedded, PostgreSQL when distributed), applies its
 * migrations — waiting up to `waitMs` for the database to come up — and starts its outbox relay.
 */
export async function openServiceInfra(
  config: BaseConfig,
  opts: { schema: string; migrations: string; bus: EventBus; logger: Logger; waitMs?: number },
): Promise<ServiceInfra> {
  const db =
    config.GATEWAY_MODE === 'embedded'
      ? openEmbeddedDatabase(config.DATA_DIR, opts.schema)
      : openPostgresDatabase(defined(config.DATABASE_URL, 'DATABASE_URL'), opts.schema);
  await databaseReady(db);
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  for (let attempt = 1; ; attempt++) {
    try {
      const applied = await migrate(db, opts.migrations);
      if (applied.length) opts.logger.info({ schema: opts.schema, applied }, 'migrations applied');
      break;
    } catch (err) {
      if (Date.now() > deadline) throw new StartupError(`cannot prepare database schema ${opts.schema}: ${(err as Error).message}`);
      if (attempt === 1) opts.logger.warn({ schema: opts.schema, err: (err as Error).message }, 'database not ready; retrying');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const outbox = new SqlOutboxSource(db);
  processMetrics().watchOutbox(opts.schema, outbox);
  const relay = new OutboxRelay(outbox, opts.bus, { pollMs: config.OUTBOX_POLL_MS, name: opts.schema, logger: opts.logger });
  return { db, relay, notifier: relay, deadLetters: new SqlDeadLetters(db, opts.logger), outbox };
}

/** A handler failure worth retrying until it passes (an outage, a schema problem); anything else is the event's (poison). */
const isTransient = (err: unknown) => classifyWriteError(err) !== 'record';

export function createEventBus(config: BaseConfig, clientId: string, logger: Logger): EventBus {
  if (config.GATEWAY_MODE === 'embedded') {
    return new InProcessEventBus({
      isTransient,
      onHandlerError: (group, event, err) => logger.warn({ group, event_id: event.id, type: event.type, err: String(err) }, 'event handler failed'),
    });
  }
  const bus = new KafkaEventBus({ brokers: config.kafkaBrokers, ...config.kafkaSecurity, clientId, logger, isTransient });
  processMetrics().watchConsumerLag(() => bus.consumerLag());
  return bus;
}

/**
 * Longest a Redis command may wait for its reply. A Redis that is gone fails commands at once (no
 * offline queue); one that hangs (accepts, never answers) would otherwise hold every command — and
 * every request reading the auth epoch or the rate limit — until the TCP connection dies.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/** Redis for distributed mode; commands fail fast while it is down or hung instead of queueing. */
export function createRedis(config: BaseConfig, logger: Logger): Redis | undefined {
  if (config.GATEWAY_MODE === 'embedded' || !config.REDIS_URL) return undefined;
  const redis = new Redis(config.REDIS_URL, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (n) => Math.min(n * 200, 2000),
  });
  let warned = false;
  redis.on('error', (err) => {
    if (!warned) logger.warn({ err: err.message }, 'redis unavailable');
    warned = true;
  });
  redis.on('ready', () => (warned = false));
  return redis;
}

/**
 * Waits up to `timeoutMs` for `redis` to be connected; false when it is not by then (callers go
 * on: the readiness check reports the cache, and commands fail fast until it is back).
 */
export function redisReady(redis: Redis, timeoutMs = 5000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.once('ready', onReady);
  });
}

export function databaseCheck(db: ServiceDatabase): ReadinessCheck {
  return { name: 'database', check: () => db.ping() };
}
export function eventsCheck(bus: EventBus): ReadinessCheck {
  return { name: 'events', check: () => bus.healthy() };
}
export function cacheCheck(redis: Redis | undefined): ReadinessCheck {
  return { name: 'cache', check: async () => (redis ? (await redis.ping().catch(() => '')) === 'PONG' : true) };
}

/** Events older than this still waiting in an outbox make the records check `warn`. */
export const OUTBOX_STUCK_AFTER_S = 60;

/**
 * Health of what the schemas hold (never a readiness matter): records the store refused and set
 * aside (dead letters), and the age of the oldest event not yet on the bus. `warn` when anything
 * was set aside or an event has waited over OUTBOX_STUCK_AFTER_S; `down` only when the numbers
 * cannot be read (the database check says why).
 */
export function recordsCheck(infras: readonly Pick<ServiceInfra, 'db' | 'deadLetters' | 'outbox'>[]): ReadinessCheck {
  return {
    name: 'records',
    check: async (): Promise<CheckResult> => {
      const bySchema: Record<string, number> = {};
      let setAside = 0;
      let oldest = 0;
      for (const infra of infras) {
        const [letters, age] = await Promise.all([infra.deadLetters.stats(), infra.outbox.oldestPendingAgeS()]);
        if (letters.count > 0) bySchema[infra.db.schema] = letters.count;
        setAside += letters.count;
        oldest = Math.max(oldest, age);
      }
      const detail = {
        set_aside: setAside,
        ...(setAside > 0 ? { set_aside_by_schema: bySchema } : {}),
        oldest_unpublished_event_s: Math.round(oldest * 1000) / 1000,
      };
      return { status: setAside > 0 || oldest > OUTBOX_STUCK_AFTER_S ? 'warn' : 'ok', detail };
    },
  };
}

/**
 * A service's `/readyz` as the gateway's health sees it: `down` when it is not ready or cannot be
 * reached; otherwise `ok`, or `warn` with the service's numbers when one of its checks warns.
 */
export async function serviceReadiness(setting: string, timeoutMs = 1000): Promise<CheckResult> {
  const urls = serviceUrls(setting);
  const results = await Promise.all(urls.map((u) => replicaReadiness(u, timeoutMs)));
  const up = results.filter((r) => r.status !== 'down');
  if (up.length === 0) return { status: 'down' };
  const down = urls.filter((_, i) => results[i]?.status === 'down');
  const warned = up.find((r) => r.status === 'warn');
  // Some replicas down, others serving: the service answers (warn, with which are down).
  if (down.length === 0 && !warned) return { status: 'ok' };
  return { status: 'warn', detail: { ...(warned?.detail ?? {}), ...(down.length > 0 ? { replicas_down: down } : {}) } };
}

async function replicaReadiness(baseUrl: string, timeoutMs: number): Promise<CheckResult> {
  const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => undefined);
  if (!res?.ok) return { status: 'down' };
  const body = (await res.json().catch(() => null)) as { checks?: Record<string, string>; details?: Record<string, Record<string, unknown>> } | null;
  const warned = Object.entries(body?.checks ?? {}).filter(([, status]) => status === 'warn');
  if (warned.length === 0) return { status: 'ok' };
  return { status: 'warn', detail: Object.fromEntries(warned.map(([name]) => [name, body?.details?.[name] ?? {}])) };
}
