import { logLevel, type LogEntry } from 'kafkajs';

/** pino-compatible subset. */
export interface KafkaEventBusLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const LOG_REPEAT_MS = 30_000;

/** Passes kafkajs' own log lines to our logger, throttled: see the comment inside. */
export function kafkaLogCreator(logger: KafkaEventBusLogger | undefined): () => (entry: LogEntry) => void {
  const seen = new Map<string, number>();
  return () => (entry: LogEntry) => {
    if (!logger || entry.level > logLevel.WARN) return;
    const { message, ...extra } = entry.log;
    // We bound retries on purpose (the outbox retries later); the warning says nothing new.
    if (message.startsWith('Limiting retries for the idempotent producer')) return;
    // kafkajs reports retriable conditions (coordinator loading, every refused reconnect) at
    // ERROR, several times a second during an outage: pass each distinct line at most every 30 s,
    // as a warning; publish failures and healthy() are what callers act on.
    const key = `${entry.namespace}|${message}`;
    const now = Date.now();
    if ((seen.get(key) ?? -Infinity) > now - LOG_REPEAT_MS) return;
    if (seen.size > 1000) seen.clear();
    seen.set(key, now);
    logger.warn({ kafkajs: entry.namespace, ...extra }, message);
  };
}
