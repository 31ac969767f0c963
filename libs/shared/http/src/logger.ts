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

/**
 * A Nest log call's message as pino's (fields, message): an object message (`logger.warn({msg,
 * delivery_id, ...})`) keeps its fields as fields and its `msg` as the message, an Error is
 * logged as `err`; anything else is the message text.
 */
function entry(message: unknown, fields: Record<string, unknown>): [Record<string, unknown>, string] {
  if (message instanceof Error) return [{ ...fields, err: message }, message.message];
  if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    const { msg, ...rest } = message as Record<string, unknown>;
    return [{ ...rest, ...fields }, typeof msg === 'string' ? msg : ''];
  }
  return [fields, String(message)];
}

/** Routes Nest's own log lines into pino (object messages as structured fields). */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  // Nest's routine start-up chatter (modules, routes) is debug detail, not operations news.
  log(message: unknown, context?: string) {
    this.logger.debug(...entry(message, { context }));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error(...entry(message, { context, trace }));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn(...entry(message, { context }));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug(...entry(message, { context }));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace(...entry(message, { context }));
  }
}
