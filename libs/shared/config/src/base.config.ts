import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MinLength, ValidateIf } from 'class-validator';
import { IntSetting } from './int-setting';
import { KafkaSecuritySettings } from './kafka-security.settings';

export const CONFIG = Symbol('CONFIG');

export type GatewayMode = 'embedded' | 'distributed';
const distributed = (c: BaseConfig) => c.GATEWAY_MODE === 'distributed';

/** Settings every process reads. Each app extends it with its own. */
export class BaseConfig extends KafkaSecuritySettings {
  /** `embedded`: one process, PGlite in DATA_DIR, an in-process bus. `distributed`: one service per process on PostgreSQL, Kafka and Redis (the service apps set it themselves). */
  @IsIn(['embedded', 'distributed'], { message: 'GATEWAY_MODE must be "embedded" or "distributed"' })
  GATEWAY_MODE: GatewayMode = 'embedded';

  /** TCP port the HTTP server listens on (each distributed service has its own default: 8080 gateway, 8081–8086 services). */
  @IntSetting('PORT', 1, 65535)
  PORT: number = 8080;

  /** Address the HTTP server binds to. */
  @IsString()
  HOST: string = '0.0.0.0';

  /** pino log level of the process (lines on stdout, in LOG_FORMAT). */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL: string = 'info';

  /** Log lines: `json`, `pretty` (for a person), or `auto`: pretty when stdout is a terminal, JSON otherwise. */
  @IsIn(['auto', 'json', 'pretty'], { message: 'LOG_FORMAT must be one of auto, json, pretty' })
  LOG_FORMAT: string = 'auto';

  /** Embedded mode: where the PGlite database and the generated keys live. Back it up; delete it to start afresh. */
  @IsString()
  DATA_DIR: string = './.data';

  /** PostgreSQL of the service (distributed; the migrate Job too); each service uses its own schema in it. */
  @ValidateIf(distributed)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgresql:// URL (required in distributed mode)' })
  DATABASE_URL?: string;

  /** Kafka bootstrap brokers (distributed; the topics Job too): the event bus between services. */
  @ValidateIf(distributed)
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, {
    message: 'KAFKA_BROKERS must be a comma-separated list of host:port (required in distributed mode)',
  })
  KAFKA_BROKERS?: string;

  /** Redis (distributed): rate-limit counters shared by replicas and the version board that keeps read models current. */
  @ValidateIf(distributed)
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL (required in distributed mode)' })
  REDIS_URL?: string;

  /** Shared secret the gateway presents to services; services trust caller headers only with it. */
  @ValidateIf(distributed)
  @IsString({ message: 'INTERNAL_AUTH_TOKEN must be set in distributed mode (at least 32 characters)' })
  @MinLength(32, { message: 'INTERNAL_AUTH_TOKEN must be at least 32 characters' })
  INTERNAL_AUTH_TOKEN?: string;

  /** How often the outbox relay polls when nothing nudged it, in ms. */
  @IsOptional()
  @IntSetting('OUTBOX_POLL_MS', 10, 60000)
  OUTBOX_POLL_MS: number = 200;

  /** Human-readable logs instead of JSON lines (development). */
  @IsOptional()
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  PRETTY_LOGS: boolean = false;

  get kafkaBrokers(): string[] {
    return (this.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  }
}
