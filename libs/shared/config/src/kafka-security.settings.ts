import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** How a Kafka client authenticates: TLS and SASL, as managed Kafka services require. */
export interface KafkaSecurity {
  ssl?: boolean;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

const withSasl = (c: KafkaSecuritySettings) => c.KAFKA_SASL_MECHANISM !== undefined;

/**
 * TLS and SASL settings of every Kafka client (the event bus, its health probe, the topics Job):
 * MSK with TLS or SCRAM, Confluent Cloud and Azure Event Hubs (SASL PLAIN over TLS), Aiven.
 */
export class KafkaSecuritySettings {
  /** Connect to Kafka over TLS (managed Kafka services). */
  @IsOptional()
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  KAFKA_SSL?: boolean;

  /** SASL mechanism for Kafka; unset: no SASL. */
  @IsOptional()
  @IsIn(['plain', 'scram-sha-256', 'scram-sha-512'], { message: 'KAFKA_SASL_MECHANISM must be plain, scram-sha-256 or scram-sha-512' })
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;

  /** SASL user name (with KAFKA_SASL_MECHANISM). */
  @ValidateIf(withSasl)
  @IsString({ message: 'KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_USERNAME?: string;

  /** SASL password (with KAFKA_SASL_MECHANISM); never logged. */
  @ValidateIf(withSasl)
  @IsString({ message: 'KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_PASSWORD?: string;

  get kafkaSecurity(): KafkaSecurity {
    const m = this.KAFKA_SASL_MECHANISM;
    return {
      ...(this.KAFKA_SSL ? { ssl: true } : {}),
      ...(m ? { sasl: { mechanism: m, username: this.KAFKA_SASL_USERNAME ?? '', password: this.KAFKA_SASL_PASSWORD ?? '' } } : {}),
    };
  }
}
