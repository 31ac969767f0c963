import type { Logger } from 'pino';
import type Redis from 'ioredis';
import type { BaseConfig } from '@igw/config';
import type { EventBus, VersionBoard } from '@igw/events';
import { createLogger } from '@igw/http';
import { createEventBus, createRedis, openServiceInfra, type ServiceInfra } from './service-infra';
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
  const logger = createLogger(config.LOG_LEVEL, name);
  const bus = createEventBus(config, name, logger);
  const infra = await openServiceInfra(config, { ...db, bus, logger });
  const redis = createRedis(config, logger);
  return { logger, bus, infra, redis, versionBoard: createVersionBoard(config, redis) };
}
