import pino, { type Logger, type LoggerOptions } from 'pino';
import type { LoggerService } from '@nestjs/common';
import { activeTraceFields } from './tracing';
import { chooseLogFormat, prettyDestination } from './log-format';

/**
 * JSON logs, or lines for a person (LOG_FORMAT pretty, or auto on a terminal). Secrets never reach
 * them: credentials are redacted by path wherever they could appear, and request logs carry no
 * headers or bodies at all.
 */
export function createLogger(level: string, name: string, format: string = 'auto'): Logger {
  const pretty = chooseLogFormat(format, Boolean(process.stdout.isTTY)) === 'pretty';
  const options: LoggerOptions = {
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The active span's trace and span ids on every line written inside one (tracing on).
    mixin: activeTraceFields,
    redact: {
      paths: [
        'authorization',
        'headers.authorization',
        '*.headers.authorization',
        'headers["x-service-mandate"]',
        '*.headers["x-service-mandate"]',
        'headers["x-igw-internal-token"]',
        '*.headers["x-igw-internal-token"]',
        'key',
        '*.key',
        'api_key',
        '*.api_key',
        'secret',
        '*.secret',
        'token',
        '*.token',
        'password',
        '*.password',
        'credential',
        '*.credential',
      ],
      censor: '[redacted]',
    },
  };
  // Redaction and the other options apply before the line is formatted: both formats hide the same.
  return pretty ? pino(options, prettyDestination()) : pino(options);
}

/** Routes Nest's own log lines into pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  // Nest's routine start-up chatter (modules, routes) is debug detail, not operations news.
  log(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
