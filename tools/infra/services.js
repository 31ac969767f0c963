// Reachability checks for the machine's PostgreSQL and Redis, and their start commands when they
// are down. Shared by infra.mjs (npm run infra:up) and the Jest integration globalSetup.
'use strict';

const { spawnSync } = require('node:child_process');

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const PG_START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';
const REDIS_START = 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no';

function errMessage(err) {
  if (!err) return 'unknown error';
  // pg/net wrap connection failures in AggregateError (IPv4+IPv6 attempts) with an empty message.
  if (err.errors?.length) return errMessage(err.errors[0]);
  return err.message || err.code || String(err);
}

/** Resolves, or rejects with the reason PostgreSQL at `url` cannot answer `SELECT 1`. */
async function checkPostgres(url = DEFAULT_DATABASE_URL, timeoutMs = 3000) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    throw new Error(errMessage(err));
  } finally {
    await client.end().catch(() => {});
  }
}

/** Resolves, or rejects with the reason Redis at `url` does not answer PING. */
async function checkRedis(url = DEFAULT_REDIS_URL, timeoutMs = 3000) {
  const Redis = require('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The listener also keeps ioredis from printing the error; its message (ECONNREFUSED ...) is
  // clearer than the "Connection is closed." that connect() rejects with.
  let socketError;
  redis.on('error', (err) => (socketError ??= err));
  try {
    await redis.connect();
    const pong = await redis.ping();
    if (pong !== 'PONG') throw new Error(`unexpected PING reply ${pong}`);
  } catch (err) {
    throw new Error(errMessage(socketError ?? err));
  } finally {
    redis.disconnect();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Checks a service and, when it is down and `startCommand` is given, runs that command once and
 * polls again for up to `waitMs`. Rejects with a one-line reason.
 */
async function ensureService({ name, check, startCommand, waitMs = 15000 }) {
  try {
    await check();
    return { started: false };
  } catch (first) {
    if (!startCommand) throw new Error(`${name} is not reachable: ${first.message}`);
    const res = spawnSync('sh', ['-c', startCommand], { encoding: 'utf8', timeout: waitMs });
    if (res.error || res.status !== 0) {
      const why = (res.error?.message || res.stderr || res.stdout || `exit ${res.status}`).trim().split('\n').pop();
      throw new Error(`${name} is not reachable (${first.message}) and \`${startCommand}\` failed: ${why}`);
    }
    const deadline = Date.now() + waitMs;
    let last = first;
    while (Date.now() < deadline) {
      try {
        await check();
        return { started: true };
      } catch (err) {
        last = err;
        await sleep(300);
      }
    }
    throw new Error(`${name} still not reachable after \`${startCommand}\`: ${last.message}`);
  }
}

function ensureLocalPostgres(url = DEFAULT_DATABASE_URL) {
  return ensureService({ name: `PostgreSQL (${url})`, check: () => checkPostgres(url), startCommand: PG_START });
}

function ensureLocalRedis(url = DEFAULT_REDIS_URL) {
  return ensureService({ name: `Redis (${url})`, check: () => checkRedis(url), startCommand: REDIS_START });
}

module.exports = {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  PG_START,
  REDIS_START,
  checkPostgres,
  checkRedis,
  ensureService,
  ensureLocalPostgres,
  ensureLocalRedis,
};
