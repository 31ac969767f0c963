import { ConfigError } from '@igw/config';
import { StartupError } from './service-infra';
import { startTracing } from './tracing';

/**
 * Runs an app's start function: a configuration or start-up problem prints one clear line and
 * exits non-zero (no stack trace); SIGTERM/SIGINT run the returned shutdown once. Tracing starts
 * first (when `OTEL_EXPORTER_OTLP_ENDPOINT` is set) and is flushed last.
 */
/** The oldest Node.js the apps run on: some dependencies need 22 (the project's npm scripts bring 24). */
export const MIN_NODE_MAJOR = 22;

/** One line and exit 78 on an older Node.js, instead of odd failures deep in a dependency. */
export function requireNodeVersion(name: string, version = process.versions.node): void {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return;
  process.stderr.write(
    `${name}: needs Node.js ${MIN_NODE_MAJOR} or newer, this is ${version}; run it through npm (\`npm start\` uses the Node.js that \`npm ci\` installed) or install Node.js ${MIN_NODE_MAJOR}+\n`,
  );
  process.exit(78);
}

export function runApp(name: string, start: () => Promise<() => Promise<void>>): void {
  requireNodeVersion(name);
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
