import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import type { OwnedInstance } from './owned-instance';

/**
 * A PostgreSQL cluster owned by one test: its own data dir, port and lifecycle, so a test can stop
 * the database under a running app (and start it again on the same port) without touching the
 * shared server other tests use. `stop` is a fast shutdown; `destroy` an immediate one.
 */
export interface PostgresInstance extends OwnedInstance {
  /** postgresql://postgres@127.0.0.1:<port>/postgres (trust auth). */
  url: string;
  /** Temp dir holding the data dir, the unix socket and postgres.log. */
  baseDir: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

function findBinDir(): string {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv) {
    if (!existsSync(join(fromEnv, 'initdb'))) throw new Error(`PG_BIN_DIR=${fromEnv} has no initdb`);
    return fromEnv;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin; set PG_BIN_DIR');
  }
  return join(root, versions[0], 'bin');
}

/** initdb refuses to run as root, so as root everything runs as the `postgres` system user. */
function runAsUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root needs a `postgres` system user to own a throwaway cluster (initdb refuses root)');
  }
}

function command(runAs: RunAs | null, bin: string, args: string[]): [string, string[]] {
  return runAs ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function run(runAs: RunAs | null, cwd: string, bin: string, args: string[]): Promise<void> {
  const [cmd, argv] = command(runAs, bin, args);
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { cwd, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${[cmd, ...argv].join(' ')} failed: ${(stderr || stdout || err.message).trim()}`));
      else resolve();
    });
  });
}

// Clusters a test forgot to destroy must not outlive the Jest worker.
const live = new Set<() => void>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const kill of live) kill();
  });
}

export async function startPostgresInstance(): Promise<PostgresInstance> {
  const binDir = findBinDir();
  const runAs = runAsUser();
  const baseDir = mkdtempSync(join(tmpdir(), 'igw-pg-'));
  if (runAs) chownSync(baseDir, runAs.uid, runAs.gid);
  const dataDir = join(baseDir, 'data');
  const logFile = join(baseDir, 'postgres.log');
  const port = await freePort();
  const pgCtl = join(binDir, 'pg_ctl');

  const kill = () => {
    try {
      const [cmd, argv] = command(runAs, pgCtl, ['-D', dataDir, '-w', '-t', '10', 'stop', '-m', 'immediate']);
      execFileSync(cmd, argv, { cwd: baseDir, stdio: 'ignore' });
    } catch {
      // already stopped
    }
    rmSync(baseDir, { recursive: true, force: true });
  };

  let running = false;
  let destroyed = false;
  try {
    await run(runAs, baseDir, join(binDir, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    appendFileSync(
      join(dataDir, 'postgresql.conf'),
      [
        '',
        '# throwaway test cluster (libs/shared/testing/src/infra/postgres-instance.ts)',
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        // Inside the temp dir: no clash with the system cluster's socket in /var/run/postgresql.
        `unix_socket_directories = '${baseDir}'`,
        // Durability is pointless for a cluster deleted after the test; speed is not.
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'shared_buffers = 32MB',
        'max_connections = 50',
        '',
      ].join('\n'),
    );
  } catch (err) {
    rmSync(baseDir, { recursive: true, force: true });
    throw err;
  }

  const start = async () => {
    if (destroyed) throw new Error('postgres instance was destroyed');
    if (running) return;
    try {
      await run(runAs, baseDir, pgCtl, ['-D', dataDir, '-l', logFile, '-w', '-t', '30', 'start']);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- ${logFile} ---\n${tailOf(logFile)}`);
    }
    running = true;
  };

  const stop = async () => {
    if (!running) return;
    await run(runAs, baseDir, pgCtl, ['-D', dataDir, '-w', '-t', '30', 'stop', '-m', 'fast']);
    running = false;
  };

  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    live.delete(kill);
    if (running) {
      await run(runAs, baseDir, pgCtl, ['-D', dataDir, '-w', '-t', '30', 'stop', '-m', 'immediate']).catch(() => undefined);
      running = false;
    }
    rmSync(baseDir, { recursive: true, force: true });
  };

  live.add(kill);
  installExitHook();
  try {
    await start();
  } catch (err) {
    await destroy();
    throw err;
  }

  return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, port, baseDir, logFile, start, stop, destroy };
}

function tailOf(file: string, lines = 20): string {
  try {
    return execFileSync('tail', ['-n', String(lines), file], { encoding: 'utf8' });
  } catch {
    return '(no log)';
  }
}
