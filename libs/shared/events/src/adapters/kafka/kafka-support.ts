import type { EventEnvelope } from '@igw/contracts';
import type { Subscription } from '../../ports/event-bus.port';
import type { KafkaConfig, SASLOptions } from 'kafkajs';

/** A handler's failure, with what its subscription does with poison. */
export class HandlerFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly event: EventEnvelope,
    readonly onPoison: Subscription['onPoison'],
  ) {
    super(errorMessage(error));
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function withTimeout<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
    timer.unref?.();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** TLS and SASL of a Kafka client (managed Kafka services). */
export interface KafkaClientSecurity {
  ssl?: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** kafkajs' `ssl`/`sasl` options from ours (absent when unset). */
export function kafkaSecurity(o: KafkaClientSecurity): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  return { ...(o.ssl ? { ssl: true } : {}), ...(o.sasl ? { sasl: o.sasl as SASLOptions } : {}) };
}
