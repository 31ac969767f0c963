// Apache Kafka without Docker: the broker jars come from Maven Central (tools/infra/kafka/pom.xml)
// and run as a single-node KRaft broker+controller. CommonJS so Jest's globalSetup (plain JS, not
// transformed), TypeScript test helpers and .mjs scripts can all load it.
'use strict';

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const POM = path.join(__dirname, 'kafka', 'pom.xml');
const LOG_CONFIG = path.join(__dirname, 'kafka', 'log4j2.properties');
const LIB_DIR = path.join(REPO_ROOT, '.infra', 'kafka', 'lib');
// The marker holds a hash of the pom: editing the pom (e.g. a version bump) re-resolves.
const MARKER = '.resolved';

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

function pomHash() {
  return crypto.createHash('sha256').update(fs.readFileSync(POM)).digest('hex').slice(0, 16);
}

function libsComplete(dir = LIB_DIR) {
  try {
    return fs.readFileSync(path.join(dir, MARKER), 'utf8').trim() === pomHash();
  } catch {
    return false;
  }
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    let out = '';
    let child;
    try {
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    } catch (err) {
      reject(err);
      return;
    }
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => {
      if (err.code === 'ENOENT') reject(new Error(`'${cmd}' not found on PATH`));
      else reject(err);
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

function tail(text, lines = 30) {
  return String(text).trimEnd().split('\n').slice(-lines).join('\n');
}

let resolving = null;

/** Resolves the broker classpath into .infra/kafka/lib once; later calls only check the marker. */
function ensureKafkaLibs() {
  if (libsComplete()) return Promise.resolve(LIB_DIR);
  resolving ??= resolveLibs().finally(() => (resolving = null));
  return resolving;
}

async function resolveLibs() {
  const started = Date.now();
  process.stderr.write(`[kafka] resolving org.apache.kafka:kafka_2.13 from Maven Central into ${path.relative(REPO_ROOT, LIB_DIR)} (one-time)...\n`);
  // Copy into a private dir and rename, so an interrupted or concurrent run never leaves a
  // half-filled lib dir that looks complete.
  const tmp = `${LIB_DIR}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(LIB_DIR), { recursive: true });
  let result;
  try {
    result = await run('mvn', ['-q', '-B', '-f', POM, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${tmp}`]);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`${err.message}: Maven 3.8+ and Java 17+ are needed to fetch the Kafka broker from Maven Central`);
  }
  const { code, out } = result;
  if (code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`Maven could not resolve the Kafka broker (exit ${code}):\n${tail(out)}`);
  }
  fs.writeFileSync(path.join(tmp, MARKER), `${pomHash()}\n`);
  if (libsComplete()) {
    // Another process finished first.
    fs.rmSync(tmp, { recursive: true, force: true });
  } else {
    fs.rmSync(LIB_DIR, { recursive: true, force: true });
    fs.renameSync(tmp, LIB_DIR);
  }
  process.stderr.write(`[kafka] resolved in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return LIB_DIR;
}

function normalizeBrokers(brokers) {
  return (Array.isArray(brokers) ? brokers : String(brokers).split(',')).map((b) => b.trim()).filter(Boolean);
}

/** True when a Kafka broker at `brokers` answers a metadata request within `timeoutMs`. */
async function isKafkaReachable(brokers, timeoutMs = 3000) {
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({
    clientId: 'igw-infra-probe',
    brokers: normalizeBrokers(brokers),
    logLevel: logLevel.NOTHING,
    connectionTimeout: Math.min(timeoutMs, 2000),
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  }).admin();
  let timer;
  try {
    await Promise.race([
      (async () => {
        await admin.connect();
        await admin.describeCluster();
      })(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    admin.disconnect().catch(() => {});
  }
}

function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

function serverProperties({ port, controllerPort, dataDir }) {
  return [
    '# Written by tools/infra/kafka.js: single-node KRaft broker+controller for local use and tests.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.bootstrap.servers=127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${dataDir}`,
    // One node: every internal topic must be satisfiable with a single replica.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=3',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'auto.create.topics.enable=true',
    'num.partitions=3',
    'default.replication.factor=1',
    // Tests start consumers constantly; the default 3 s join delay would dominate their runtime.
    'group.initial.rebalance.delay.ms=0',
    // Lets test consumers use short sessions so a restarted broker forgets dead members quickly.
    'group.min.session.timeout.ms=1000',
    'log.retention.hours=168',
    'log.segment.bytes=16777216',
    '',
  ].join('\n');
}

/** Kafka cluster ids are 16 random bytes, base64url without padding (what `random-uuid` prints). */
function randomClusterId() {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    // Kafka's own generator never returns ids starting with '-' (they read as CLI flags).
    if (!id.startsWith('-')) return id;
  }
}

function javaArgs(libDir, configFile) {
  const heap = (process.env.KAFKA_HEAP_OPTS || '-Xmx512m -Xms128m').split(/\s+/).filter(Boolean);
  return [
    ...heap,
    // Serial GC and C1-only JIT: ~2.5 s start and a smaller footprint on a 2-core box; plenty
    // for local development and tests.
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${LOG_CONFIG}`,
    '-cp',
    `${libDir}/*`,
    'kafka.Kafka',
    configFile,
  ];
}

async function formatStorage(libDir, configFile, dataDir) {
  if (fs.existsSync(path.join(dataDir, 'meta.properties'))) return;
  const { code, out } = await run('java', [
    `-Dlog4j2.configurationFile=${LOG_CONFIG}`,
    '-cp',
    `${libDir}/*`,
    'kafka.tools.StorageTool',
    'format',
    '--standalone',
    '--cluster-id',
    randomClusterId(),
    '--config',
    configFile,
  ]);
  if (code !== 0) throw new Error(`Kafka storage format failed (exit ${code}):\n${tail(out)}`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** True when `pid` is a running `kafka.Kafka` JVM (guards against a recycled pid in a stale pid file). */
function isKafkaProcess(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('kafka.Kafka');
  } catch {
    return isAlive(pid);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM (controlled shutdown), then SIGKILL if the broker has not exited after `timeoutMs`. */
async function stopKafkaPid(pid, timeoutMs = STOP_TIMEOUT_MS) {
  if (!pid || !isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return;
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  while (isAlive(pid)) await sleep(50);
}

function readTail(file, lines = 40) {
  try {
    return tail(fs.readFileSync(file, 'utf8'), lines);
  } catch {
    return '(no broker log)';
  }
}

/**
 * Starts a single-node KRaft Kafka on 127.0.0.1 and resolves once a client can describe the
 * cluster. The data dir is formatted on first use only, so a restart keeps topics and messages.
 */
async function startKafka(options = {}) {
  const port = options.port ?? 9092;
  const controllerPort = options.controllerPort ?? port + 1;
  const dataDir = path.resolve(options.dataDir ?? path.join(REPO_ROOT, '.infra', 'kafka', 'data'));
  const baseDir = path.dirname(dataDir);
  const configFile = path.resolve(options.configFile ?? path.join(baseDir, 'server.properties'));
  const logFile = path.resolve(options.logFile ?? path.join(baseDir, 'broker.log'));
  const detached = options.detached ?? false;
  const timeoutMs = options.timeoutMs ?? READY_TIMEOUT_MS;
  const brokers = `127.0.0.1:${port}`;

  const libDir = await ensureKafkaLibs();

  for (const p of [port, controllerPort]) {
    if (await portInUse(p)) {
      throw new Error(`port 127.0.0.1:${p} is already in use`);
    }
  }

  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(configFile, serverProperties({ port, controllerPort, dataDir }));
  await formatStorage(libDir, configFile, dataDir);

  const started = Date.now();
  const logFd = fs.openSync(logFile, 'a');
  fs.writeSync(logFd, `\n--- starting Kafka on ${brokers} at ${new Date().toISOString()} ---\n`);
  let child;
  try {
    child = spawn('java', javaArgs(libDir, configFile), {
      detached,
      stdio: ['ignore', logFd, logFd],
      cwd: baseDir,
    });
  } finally {
    fs.closeSync(logFd);
  }

  let exited = false;
  let exitCode = null;
  const exitPromise = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      exitCode = code ?? signal;
      resolve();
    });
    child.once('error', (err) => {
      exited = true;
      exitCode = err.code === 'ENOENT' ? "'java' not found on PATH" : err.message;
      resolve();
    });
  });

  // An attached broker must not outlive its parent (e.g. Jest killed before globalTeardown).
  const killOnExit = () => {
    if (!exited) child.kill('SIGKILL');
  };
  if (detached) child.unref();
  else process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (exited) return;
    child.kill('SIGTERM');
    let timer;
    const timeout = new Promise((r) => (timer = setTimeout(r, STOP_TIMEOUT_MS, 'timeout')));
    const outcome = await Promise.race([exitPromise, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      child.kill('SIGKILL');
      await exitPromise;
    }
  };

  const deadline = started + timeoutMs;
  for (;;) {
    if (exited) {
      process.removeListener('exit', killOnExit);
      throw new Error(`Kafka broker on ${brokers} exited during start-up (${exitCode}); tail of ${logFile}:\n${readTail(logFile)}`);
    }
    if (await isKafkaReachable(brokers, 2000)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Kafka broker on ${brokers} not ready after ${Math.round(timeoutMs / 1000)} s; tail of ${logFile}:\n${readTail(logFile)}`);
    }
    await sleep(250);
  }

  return {
    brokers,
    pid: child.pid,
    port,
    controllerPort,
    dataDir,
    logFile,
    startMs: Date.now() - started,
    stop,
  };
}

let warningFilterInstalled = false;

/**
 * kafkajs 2.2.4 schedules a negative timeout on Node >= 23 and Node prints a
 * TimeoutNegativeWarning (harmless; kafkajs issue #1751). For our CLIs and Jest only: drops that
 * one warning in this process.
 */
function silenceKafkajsTimerWarning() {
  if (warningFilterInstalled) return;
  warningFilterInstalled = true;
  const emitWarning = process.emitWarning.bind(process);
  process.emitWarning = (warning, ...rest) => {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0] && rest[0].type;
    if (type === 'TimeoutNegativeWarning') return;
    emitWarning(warning, ...rest);
  };
}

module.exports = {
  LIB_DIR,
  REPO_ROOT,
  ensureKafkaLibs,
  startKafka,
  stopKafkaPid,
  isKafkaReachable,
  isKafkaProcess,
  silenceKafkajsTimerWarning,
};
