import { ConfigError } from '@igw/config';
import { StartupError } from './service-infra';
import { startTracing } from './tracing';

/**
 * Runs an app's start function: a configuration or start-up problem prints one clear line and
 * exits non-zero (no stack trace); SIGTERM/SIGINT run the returned shutdown once. Tracing starts
 * first (when `OTEL_EXPORTER_OTLP_ENDPOINT` is set) and is flushed last.
 */
export function runApp(name: string, start: () => Promise<() => Promise<void>>): void {
  let shutdown: (() => Promise<void>) | undefined;
  let stopTracing: (() => Promise<void>) | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await shutdown?.();
      await stopTracing?.();
    } finally {
      clearTimeout(force);
      process.exit(signal === 'error' ? 1 : 0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  startTracing(name)
    .then((t) => {
      stopTracing = t;
      return start();
    })
    .then((s) => {
      shutdown = s;
    })
    .catch((err: unknown) => {
      const known = err instanceof ConfigError || err instanceof StartupError;
      const listen = (err as { code?: string }).code === 'EADDRINUSE';
      const message = known || listen ? (err as Error).message : `unexpected start-up failure: ${(err as Error)?.stack ?? String(err)}`;
      process.stderr.write(`${name}: ${message}\n`);
      process.exit(known ? 78 : 1);
    });
}
