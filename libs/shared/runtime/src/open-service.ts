import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type Redis from 'ioredis';
import type { BaseConfig } from '@igw/config';
import type { EventBus, ReadModelTracker, VersionBoard } from '@igw/events';
import { createLogger, type ReadinessCheck } from '@igw/http';
import { cacheCheck, createEventBus, createRedis, databaseCheck, eventsCheck, openServiceInfra, recordsCheck, type ServiceInfra } from './service-infra';
import { createVersionBoard } from './version-board';

export interface OpenedService {
  logger: Logger;
  bus: EventBus;
  infra: ServiceInfra;
  /** Undefined in embedded mode (no Redis there). */
  redis: Redis | undefined;
  versionBoard: VersionBoard;
}

/**
 * The start of every distributed service root: its logger, its bus (Kafka client id = name), its
 * schema with migrations applied and outbox relay, Redis and the version board on it.
 */
export async function openService(config: BaseConfig, name: string, db: { schema: string; migrations: string }): Promise<OpenedService> {
  const logger = createLogger(config.LOG_LEVEL, name, config.LOG_FORMAT);
  const bus = createEventBus(config, name, logger);
  const infra = await openServiceInfra(config, { ...db, bus, logger });
  const redis = createRedis(config, logger);
  return { logger, bus, infra, redis, versionBoard: createVersionBoard(config, redis) };
}

/**
 * The readiness checks of a distributed service root: database, events, Redis when there is one,
 * and, for a service with read models, their loading and its set-aside records.
 */
export function serviceChecks(svc: Pick<OpenedService, 'bus' | 'infra' | 'redis'>, readModels?: ReadModelTracker): ReadinessCheck[] {
  const { bus, infra, redis } = svc;
  return [databaseCheck(infra.db), eventsCheck(bus), ...(redis ? [cacheCheck(redis)] : []), ...(readModels ? [readModels.check(), recordsCheck([infra])] : [])];
}

/** A consumer group of this replica alone: every replica keeps its own read models, so each needs every event. */
export function replicaGroup(base: string): string {
  return `${base}.${hostname()}.${process.pid}`;
}
