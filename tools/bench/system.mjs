// Starts the system under test for the benchmark (embedded, or distributed on PostgreSQL, Redis
// and Kafka) and keeps track of everything it started, so run.mjs can stop all of it on exit,
// on SIGINT/SIGTERM and on errors. Diagnostics go to stderr only.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
const require = createRequire(import.meta.url);

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_KEEP = 16_384;

export const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/** A bench's settings parsed from the environment, or undefined (after saying why) when invalid. */
/** An integer setting of `env`: `def` when unset, else an integer ≥ `min` (thrown otherwise, for readSettings). */
export function intSetting(env, name, def, min) {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return v;
}

export function readSettings(parse, env = process.env) {
  try {
    return parse(env);
  } catch (err) {
    log(err.message);
    return undefined;
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- everything we started -----------------------------------------------------------------

/** Live child processes (apps, loaders): killed with SIGKILL by killAllSync as a last resort. */
const children = new Set();
/** Extra pids we must not leave behind (a Kafka broker started through tools/infra/kafka.js). */
const extraPids = new Set();
/** Async clean-up steps, run last-in first-out. */
const cleanups = [];

export function trackChild(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function onCleanup(fn) {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** Runs every registered clean-up step (newest first); a failing step does not stop the others. */
export async function cleanupAll() {
  // Processes first (loaders and apps together), then databases, brokers and directories.
  await Promise.all([...children].map((c) => stopChild(c)));
  while (cleanups.length) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (err) {
      log(`clean-up step failed: ${err?.message ?? err}`);
    }
  }
}

/** Synchronous last resort (process 'exit'): SIGKILL whatever is still running. */
export function killAllSync() {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        c.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  for (const pid of extraPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

export async function stopChild(child, timeoutMs = STOP_TIMEOUT_MS) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Runs one loader job (tools/bench/loader.mjs, its own process) and resolves with its result line.
 * A loader that exits non-zero after printing a result (its hard time limit) still counts.
 */
export function runLoader(job) {
  return new Promise((resolve, reject) => {
    const child = trackChild(spawn(process.execPath, [join(HERE, 'loader.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] }));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    // The loader has its own hard limit; this only guards against a wedged process.
    const watchdog = setTimeout(() => child.kill('SIGKILL'), ((job.warmupS ?? 0) + job.durationS + 90) * 1000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(watchdog);
      const last = out.trim().split('\n').at(-1);
      try {
        const result = JSON.parse(last);
        if (code !== 0) log(`loader exited with ${code ?? signal} (partial result kept)`);
        resolve(result);
      } catch {
        reject(new Error(`loader exited with ${code ?? signal} without a result`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

export async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      servers.push(
        await new Promise((res, rej) => {
          const s = createServer();
          s.once('error', rej);
          s.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => res(s));
        }),
      );
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r()))));
  }
}

const randomSecret = (label) => `bench-${label}-${randomBytes(24).toString('base64url')}`;

// ---- apps ----------------------------------------------------------------------------------

/** Starts dist/apps/<app>/src/main.js on `port` and waits until GET /livez answers 200. */
/** BENCH_APP_NODE_ARGS: extra node flags for the apps under test (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
const appNodeArgs = () => (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean);

async function startApp(app, env, port) {
  const main = join(ROOT, 'dist/apps', app, 'src/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  let out = '';
  const keep = (d) => {
    out += d.toString();
    if (out.length > OUTPUT_KEEP * 2) out = out.slice(-OUTPUT_KEEP);
  };
  const child = trackChild(
    spawn(process.execPath, [...appNodeArgs(), main], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: 'warn', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const proc = {
    name: app,
    url,
    child,
    output: () => out.slice(-OUTPUT_KEEP),
    stop: () => stopChild(child),
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${app} exited (${child.exitCode ?? child.signalCode}) during start-up:\n${out.trim().split('\n').slice(-15).join('\n')}`);
    }
    const ok = await fetch(`${url}/livez`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() - started > START_TIMEOUT_MS) {
      await stopChild(child, 1000);
      throw new Error(`${app} did not answer /livez within ${START_TIMEOUT_MS / 1000} s:\n${out.trim().split('\n').slice(-15).join('\n')}`);
    }
    await sleep(100);
  }
  log(`${app} up on ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return proc;
}

/** Waits (best effort) for GET /readyz: dependencies connected before we measure. */
async function waitReady(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
      last = `${r.status} ${await r.text()}`;
      if (r.ok) return;
    } catch (err) {
      last = err.message;
    }
    await sleep(250);
  }
  log(`warning: ${url}/readyz not ready after ${timeoutMs / 1000} s (${last}); measuring anyway`);
}

// ---- systems -------------------------------------------------------------------------------

/** A stop function that runs once, also when the whole run is cleaned up. */
function stopOnce(steps) {
  let done = null;
  const run = () => {
    done ??= (async () => {
      for (const step of steps) {
        try {
          await step();
        } catch (err) {
          log(`stop step failed: ${err?.message ?? err}`);
        }
      }
    })();
    return done;
  };
  const unregister = onCleanup(run);
  // Stays registered until done, so a concurrent cleanupAll() waits for the same run.
  return async () => {
    await run();
    unregister();
  };
}

export async function startEmbedded() {
  const dataDir = mkdtempSync(join(tmpdir(), 'igw-bench-'));
  const platformKey = randomSecret('platform');
  const adminKey = randomSecret('admin');
  const apps = [];
  const stop = stopOnce([() => Promise.all(apps.map((a) => a.stop())), () => rmSync(dataDir, { recursive: true, force: true })]);
  let port;
  // WEBHOOKS_ALLOW_PRIVATE: the webhook-delivery scenario's receiver listens on 127.0.0.1;
  // MCP_UPSTREAMS_ALLOW_PRIVATE: so does the mcp-tools-call scenario's upstream.
  const launch = async () => {
    apps.push(
      await startApp(
        'embedded',
        {
          DATA_DIR: dataDir,
          BOOTSTRAP_ADMIN_KEY: adminKey,
          PLATFORM_ADMIN_KEY: platformKey,
          WEBHOOKS_ALLOW_PRIVATE: 'true',
          MCP_UPSTREAMS_ALLOW_PRIVATE: 'true',
        },
        port,
      ),
    );
    await waitReady(apps[0].url);
  };
  try {
    [port] = await freePorts(1);
    await launch();
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    mode: 'embedded',
    url: apps[0].url,
    platformKey,
    adminKey,
    apps,
    stop,
    /** Stops the app, runs `fn(pgliteDir)` on its store (one process may open it), starts it again on the same port. */
    async offline(fn) {
      await Promise.all(apps.splice(0).map((a) => a.stop()));
      await fn(join(dataDir, 'pglite'));
      await launch();
    },
  };
}

/** Kafka: KAFKA_BROKERS, else a broker on 127.0.0.1:9092, else one we start (and stop). */
async function kafkaFor(steps) {
  if (process.env.KAFKA_BROKERS) return process.env.KAFKA_BROKERS;
  const kafka = require(join(ROOT, 'tools/infra/kafka.js'));
  if (await kafka.isKafkaReachable('127.0.0.1:9092', 3000)) {
    log('using the Kafka broker on 127.0.0.1:9092');
    return '127.0.0.1:9092';
  }
  const base = join(ROOT, '.infra', 'kafka-bench');
  const dataDir = join(base, 'data');
  // Fresh storage every run: the ports are chosen anew and the controller quorum remembers its port.
  rmSync(dataDir, { recursive: true, force: true });
  const [port, controllerPort] = await freePorts(2);
  log(`starting a Kafka broker on 127.0.0.1:${port} (data in ${dataDir})...`);
  const broker = await kafka.startKafka({ port, controllerPort, dataDir, logFile: join(base, 'broker.log') });
  extraPids.add(broker.pid);
  steps.push(async () => {
    await broker.stop();
    extraPids.delete(broker.pid);
    rmSync(dataDir, { recursive: true, force: true });
  });
  log(`Kafka up on ${broker.brokers} in ${(broker.startMs / 1000).toFixed(1)} s`);
  return broker.brokers;
}

export async function startDistributed() {
  const pg = require('pg');
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const platformKey = randomSecret('platform');
  const adminKey = randomSecret('admin');
  const apps = [];
  let dropDb = null;
  let databaseUrl;
  const kafkaSteps = [];
  // In order at stop: apps (gateway before registry), then the database, then a Kafka we started.
  const stop = stopOnce([
    () => Promise.all([...apps].reverse().map((a) => a.stop())),
    async () => dropDb?.(),
    async () => {
      for (const s of kafkaSteps) await s();
    },
  ]);
  try {
    const dbName = `igw_bench_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${dbName}`);
    } finally {
      await admin.end();
    }
    dropDb = async () => {
      const c = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    };
    const dbUrl = new URL(serverUrl);
    dbUrl.pathname = `/${dbName}`;
    databaseUrl = dbUrl.toString();
    const brokers = await kafkaFor(kafkaSteps);
    const common = {
      GATEWAY_MODE: 'distributed',
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl.toString(),
      KAFKA_BROKERS: brokers,
      REDIS_URL: redisUrl,
      INTERNAL_AUTH_TOKEN: randomBytes(32).toString('base64url'),
    };
    // Decision-proxy replicas as the chart runs them (2): the gateway balances over both, and MCP
    // sessions are served by whichever a request reaches (decision 0020).
    const proxies = Number(process.env.BENCH_DECISION_PROXIES ?? 2);
    if (!Number.isInteger(proxies) || proxies < 1 || proxies > 4) throw new Error('BENCH_DECISION_PROXIES must be 1 to 4');
    const [registryPort, approvalsPort, evaluatorPort, issuerPort, webhooksPort, gatewayPort, ...proxyPorts] = await freePorts(6 + proxies);
    const urls = {
      POLICY_REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
      APPROVALS_URL: `http://127.0.0.1:${approvalsPort}`,
      INTENT_EVALUATOR_URL: `http://127.0.0.1:${evaluatorPort}`,
      MANDATE_ISSUER_URL: `http://127.0.0.1:${issuerPort}`,
      DECISION_PROXY_URL: proxyPorts.map((p) => `http://127.0.0.1:${p}`).join(','),
      WEBHOOK_DISPATCHER_URL: `http://127.0.0.1:${webhooksPort}`,
    };
    const grantKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    apps.push(await startApp('policy-registry', common, registryPort));
    apps.push(await startApp('approvals', { ...common, ...urls }, approvalsPort));
    apps.push(await startApp('intent-evaluator', { ...common, ...urls, GRANT_SIGNING_KEY: grantKey }, evaluatorPort));
    apps.push(await startApp('mandate-issuer', { ...common, ...urls, MANDATE_KEK: randomBytes(32).toString('base64url') }, issuerPort));
    // MCP_UPSTREAMS_ALLOW_PRIVATE: the mcp-tools-call scenario's upstream listens on 127.0.0.1.
    // Replicas share the key that seals upstream headers (each opens what another sealed).
    const mcpUpstreamsKek = randomBytes(32).toString('base64url');
    for (const port of proxyPorts) {
      apps.push(await startApp('decision-proxy', { ...common, ...urls, MCP_UPSTREAMS_KEK: mcpUpstreamsKek, MCP_UPSTREAMS_ALLOW_PRIVATE: 'true' }, port));
    }
    // The gateway routes /v1/webhooks here (it refuses to start without WEBHOOK_DISPATCHER_URL);
    // WEBHOOKS_ALLOW_PRIVATE: the webhook-delivery scenario's receiver listens on 127.0.0.1.
    // A consumer group of its own per run: a new group starts at the latest offsets, so events other
    // runs left on the shared broker are never a backlog in front of this run's.
    apps.push(
      await startApp(
        'webhook-dispatcher',
        {
          ...common,
          WEBHOOK_KEK: randomBytes(32).toString('base64'),
          WEBHOOKS_ALLOW_PRIVATE: 'true',
          WEBHOOK_CONSUMER_GROUP: `webhook-dispatcher.bench-${randomBytes(4).toString('hex')}`,
        },
        webhooksPort,
      ),
    );
    apps.push(await startApp('api-gateway', { ...common, ...urls, BOOTSTRAP_ADMIN_KEY: adminKey, PLATFORM_ADMIN_KEY: platformKey }, gatewayPort));
    for (const a of apps) await waitReady(a.url);
  } catch (err) {
    await stop();
    throw err;
  }
  return { mode: 'distributed', url: apps.at(-1).url, databaseUrl, platformKey, adminKey, apps, stop };
}
