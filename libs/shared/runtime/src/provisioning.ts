import type { Logger } from 'pino';
import { ConfigError, IntSetting, KafkaSecuritySettings } from '@igw/config';
import { provisionTopics as createMissingTopics } from '@igw/events';
import { migrate, openPostgresDatabase } from '@igw/persistence';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { requireNodeVersion } from './run-app';
import { StartupError } from './service-infra';

/**
 * A one-shot task (a Kubernetes Job): runs `task`, exits 0 when it is done; a configuration or
 * start-up problem prints one line and exits 78, any other failure one line and exits 1.
 */
export function runTask(name: string, task: () => Promise<void>): void {
  requireNodeVersion(name);
  task()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      const known = err instanceof ConfigError || err instanceof StartupError;
      process.stderr.write(`${name}: ${(err as Error)?.message ?? String(err)}\n`);
      process.exit(known ? 78 : 1);
    });
}

/** Applies each schema's migrations on `url`, one schema after the other. */
export async function migrateSchemas(url: string, logger: Logger, schemas: readonly (readonly [schema: string, migrations: string])[]): Promise<void> {
  for (const [schema, migrations] of schemas) {
    const db = openPostgresDatabase(url, schema, 1);
    try {
      const applied = await migrate(db, migrations);
      logger.info({ schema, applied }, applied.length > 0 ? 'migrations applied' : 'schema up to date');
    } catch (err) {
      throw new StartupError(`cannot migrate schema ${schema}: ${(err as Error).message}`);
    } finally {
      await db.close();
    }
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS = ['auto', 'json', 'pretty'];

/** The migrate Job's settings: only the database. */
export class MigrateSettings {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgresql:// URL' })
  DATABASE_URL!: string;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: string = 'info';

  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: string = 'auto';
}

/** The topics Job's settings: the brokers, and how to create topics (unset: the broker's defaults). */
export class TopicSettings extends KafkaSecuritySettings {
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'KAFKA_BROKERS must be a comma-separated list of host:port' })
  KAFKA_BROKERS!: string;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: string = 'info';

  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: string = 'auto';

  /** Partitions of each topic the topics Job creates; unset: the broker's default. */
  @IsOptional()
  @IntSetting('KAFKA_TOPIC_PARTITIONS', 1, 10_000)
  KAFKA_TOPIC_PARTITIONS?: number;

  /** Replication factor of each topic the topics Job creates; unset: the broker's default. */
  @IsOptional()
  @IntSetting('KAFKA_TOPIC_REPLICATION_FACTOR', 1, 16)
  KAFKA_TOPIC_REPLICATION_FACTOR?: number;
}

export async function provisionTopics(topics: readonly string[], settings: TopicSettings, logger: Logger): Promise<void> {
  const brokers = settings.KAFKA_BROKERS.split(',');
  const created = await createMissingTopics({ brokers, ...settings.kafkaSecurity }, topics, {
    numPartitions: settings.KAFKA_TOPIC_PARTITIONS ?? -1,
    replicationFactor: settings.KAFKA_TOPIC_REPLICATION_FACTOR ?? -1,
  }).catch((err: unknown) => {
    throw new StartupError(`cannot create topics on ${brokers.join(',')}: ${(err as Error).message}`);
  });
  logger.info({ created, existing: topics.length - created.length }, 'topics ready');
}
