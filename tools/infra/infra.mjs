#!/usr/bin/env node
// npm run infra:up | infra:down — local PostgreSQL, Redis and Kafka without Docker.
//   up:     makes sure PostgreSQL and Redis answer (starting the machine's services if needed),
//           starts a detached Kafka on 127.0.0.1:9092 unless one answers already, then prints the
//           env lines on stdout (progress goes to stderr, so `eval "$(npm run -s infra:up)"` works).
//   down:   stops the Kafka that `up` started (pid file); PostgreSQL and Redis are the machine's.
//   status: one line per service.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const kafka = require('./kafka.js');
const services = require('./services.js');

kafka.silenceKafkajsTimerWarning();

const KAFKA_PORT = 9092;
const KAFKA_BROKERS = `127.0.0.1:${KAFKA_PORT}`;
const KAFKA_DIR = path.join(kafka.REPO_ROOT, '.infra', 'kafka');
const PID_FILE = path.join(KAFKA_DIR, 'kafka.pid');
const LOG_FILE = path.join(KAFKA_DIR, 'broker.log');
const DATA_DIR = path.join(KAFKA_DIR, 'data');

const info = (msg) => process.stderr.write(`[infra] ${msg}\n`);
const rel = (p) => path.relative(process.cwd(), p) || '.';

function readPid() {
  try {
    const pid = Number(fs.readFileSync(PID_FILE, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** PostgreSQL and Redis only (CI: the test suite starts its own Kafka). */
async function machineServices() {
  const pg = await services.ensureLocalPostgres(services.DEFAULT_DATABASE_URL);
  info(`PostgreSQL 127.0.0.1:5432 ${pg.started ? 'started' : 'up'}`);
  const redis = await services.ensureLocalRedis(services.DEFAULT_REDIS_URL);
  info(`Redis 127.0.0.1:6379 ${redis.started ? 'started' : 'up'}`);
}

async function up() {
  await machineServices();

  if (await kafka.isKafkaReachable(KAFKA_BROKERS)) {
    const pid = readPid();
    info(`Kafka ${KAFKA_BROKERS} up${pid && kafka.isKafkaProcess(pid) ? ` (pid ${pid})` : ' (not started by infra:up)'}`);
  } else {
    const started = Date.now();
    const broker = await kafka.startKafka({
      port: KAFKA_PORT,
      controllerPort: KAFKA_PORT + 1,
      dataDir: DATA_DIR,
      logFile: LOG_FILE,
      detached: true,
    });
    fs.writeFileSync(PID_FILE, `${broker.pid}\n`);
    info(
      `Kafka ${KAFKA_BROKERS} started: ready ${(broker.startMs / 1000).toFixed(1)} s after launch, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s in all (pid ${broker.pid}, log ${rel(LOG_FILE)})`,
    );
  }

  process.stdout.write(
    [`DATABASE_URL=${services.DEFAULT_DATABASE_URL}`, `KAFKA_BROKERS=${KAFKA_BROKERS}`, `REDIS_URL=${services.DEFAULT_REDIS_URL}`, ''].join('\n'),
  );
}

async function down() {
  const pid = readPid();
  if (!pid) {
    info('no Kafka started by infra:up (no pid file); PostgreSQL and Redis are left running');
    return;
  }
  if (!kafka.isKafkaProcess(pid)) {
    info(`Kafka pid ${pid} is not running; removing stale pid file`);
  } else {
    await kafka.stopKafkaPid(pid);
    info(`Kafka (pid ${pid}) stopped; PostgreSQL and Redis are left running`);
  }
  fs.rmSync(PID_FILE, { force: true });
}

async function status() {
  const line = async (name, probe) => {
    try {
      await probe();
      info(`${name}: up`);
      return true;
    } catch (err) {
      info(`${name}: down (${err.message})`);
      return false;
    }
  };
  const results = [
    await line('PostgreSQL 127.0.0.1:5432', () => services.checkPostgres()),
    await line('Redis 127.0.0.1:6379', () => services.checkRedis()),
    await line(`Kafka ${KAFKA_BROKERS}`, async () => {
      if (!(await kafka.isKafkaReachable(KAFKA_BROKERS))) throw new Error('no answer');
    }),
  ];
  const pid = readPid();
  if (pid) info(`infra:up Kafka pid ${pid} ${kafka.isKafkaProcess(pid) ? 'running' : 'not running (stale pid file)'}`);
  if (results.includes(false)) process.exitCode = 1;
}

const commands = { up, down, status, services: machineServices };
const cmd = process.argv[2];
if (!commands[cmd]) {
  process.stderr.write('usage: node tools/infra/infra.mjs up|down|status|services\n');
  process.exit(2);
}
try {
  await commands[cmd]();
} catch (err) {
  // Details (Maven output, broker log tail) first, so the last line is the one-line reason.
  const [first, ...details] = String(err.message).split('\n');
  if (details.length) process.stderr.write(`${details.join('\n')}\n`);
  process.stderr.write(`[infra] ${cmd} failed: ${first}\n`);
  process.exit(1);
}
