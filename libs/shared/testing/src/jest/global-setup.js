// Integration-test globalSetup (plain CommonJS: Jest loads it untransformed).
// Reaches PostgreSQL, Redis and Kafka — or starts them — and hands their addresses to the test
// workers as TEST_DATABASE_URL, TEST_REDIS_URL and TEST_KAFKA_BROKERS. A service that cannot be
// had fails the whole run with one line: integration tests never skip silently.
'use strict';

const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');
const kafka = require(path.join(REPO_ROOT, 'tools/infra/kafka.js'));
const services = require(path.join(REPO_ROOT, 'tools/infra/services.js'));

const LOCAL_KAFKA = '127.0.0.1:9092';

function fail(message) {
  const err = new Error(`[int] ${message}`);
  // Jest prints the stack; the message is the whole story.
  err.stack = err.message;
  return err;
}

async function withEnvironmentServices() {
  const dbUrl = process.env.TEST_DATABASE_URL || services.DEFAULT_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL || services.DEFAULT_REDIS_URL;

  // The machine's own services may be restarted with its start commands; a URL someone passed
  // in is theirs to run, so it is only checked.
  const pg = process.env.TEST_DATABASE_URL
    ? services.ensureService({ name: `PostgreSQL (${dbUrl})`, check: () => services.checkPostgres(dbUrl) })
    : services.ensureLocalPostgres(dbUrl);
  const redis = process.env.TEST_REDIS_URL
    ? services.ensureService({ name: `Redis (${redisUrl})`, check: () => services.checkRedis(redisUrl) })
    : services.ensureLocalRedis(redisUrl);
  const [pgResult, redisResult] = await Promise.allSettled([pg, redis]);
  for (const r of [pgResult, redisResult]) {
    if (r.status === 'rejected') {
      throw fail(`${r.reason.message}. Run \`npm run infra:up\` or set TEST_DATABASE_URL / TEST_REDIS_URL.`);
    }
  }

  let brokers = process.env.TEST_KAFKA_BROKERS;
  if (brokers) {
    if (!(await kafka.isKafkaReachable(brokers, 5000))) {
      throw fail(`Kafka is not reachable at TEST_KAFKA_BROKERS=${brokers}.`);
    }
  } else if (await kafka.isKafkaReachable(LOCAL_KAFKA)) {
    brokers = LOCAL_KAFKA;
  } else {
    try {
      const broker = await kafka.startKafka({
        port: 9092,
        controllerPort: 9093,
        dataDir: path.join(REPO_ROOT, '.infra', 'kafka-test', 'data'),
      });
      globalThis.__IGW_INT_KAFKA__ = broker;
      process.stderr.write(`[int] started Kafka on ${broker.brokers} in ${(broker.startMs / 1000).toFixed(1)} s\n`);
      brokers = broker.brokers;
    } catch (err) {
      // startKafka's message carries Maven output or the broker log tail after the first line.
      const [first, ...details] = String(err.message).split('\n');
      if (details.length) process.stderr.write(`${details.join('\n')}\n`);
      throw fail(`Kafka could not be started: ${first}`);
    }
  }

  process.env.TEST_DATABASE_URL = dbUrl;
  process.env.TEST_REDIS_URL = redisUrl;
  process.env.TEST_KAFKA_BROKERS = brokers;
}

// Where a container runtime exists, throwaway containers beat shared services.
async function withContainers() {
  const { PostgreSqlContainer } = require('@testcontainers/postgresql');
  const { RedisContainer } = require('@testcontainers/redis');
  const { KafkaContainer } = require('@testcontainers/kafka');
  let started;
  try {
    started = await Promise.all([
      new PostgreSqlContainer('postgres:15-alpine').start(),
      new RedisContainer('redis:7-alpine').start(),
      new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start(),
    ]);
  } catch (err) {
    throw fail(`TESTCONTAINERS_ENABLED=true but containers could not be started: ${err.message}`);
  }
  const [pg, redis, kafkaContainer] = started;
  globalThis.__IGW_INT_CONTAINERS__ = started;
  process.env.TEST_DATABASE_URL = pg.getConnectionUri();
  process.env.TEST_REDIS_URL = redis.getConnectionUrl();
  process.env.TEST_KAFKA_BROKERS = `${kafkaContainer.getHost()}:${kafkaContainer.getMappedPort(9093)}`;
}

module.exports = async function globalSetup() {
  // Jest runs int tests in band (maxWorkers 1), so this also quiets kafkajs inside the tests.
  kafka.silenceKafkajsTimerWarning();
  if (process.env.TESTCONTAINERS_ENABLED === 'true') await withContainers();
  else await withEnvironmentServices();
};
