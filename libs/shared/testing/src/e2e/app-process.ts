import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../../../../..');

export interface AppProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed, for assertions (e.g. that no secret was logged). */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a built app (`dist/apps/<app>/src/main.js`) as a real process and waits for /livez. */
export async function startApp(app: string, env: Record<string, string>, opts: { port: number; timeoutMs?: number }): Promise<AppProcess> {
  const main = join(REPO_ROOT, 'dist/apps', app, 'src/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  let out = '';
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env, PORT: String(opts.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${opts.port}`;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode} during start-up:\n${out.slice(-4000)}`);
    const ok = await fetch(`${url}/livez`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${app} did not come up within ${opts.timeoutMs ?? 60_000} ms:\n${out.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name: app,
    url,
    port: opts.port,
    child,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      reportStalls(app, out);
      return code;
    },
  };
}

/**
 * A process that stopped answering logs what it waits on (`stall:` lines: requests, the embedded
 * store, a blocked event loop); a test only sees its own timeout, so the lines are printed here.
 */
function reportStalls(app: string, output: string): void {
  const stalls = output.split('\n').filter((line) => line.includes('"msg":"stall:'));
  if (stalls.length > 0) console.warn(`${app} reported stalls:\n${stalls.slice(0, 12).join('\n')}`);
}

/** Runs an app to completion (for start-up failure tests) and returns its exit code and output. */
export function runAppToExit(app: string, env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  const main = join(REPO_ROOT, 'dist/apps', app, 'src/main.js');
  return new Promise((resolvePromise) => {
    let out = '';
    const child = spawn(process.execPath, [main], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output: out });
    });
  });
}
