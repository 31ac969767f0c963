// `npm run bench`: starts the system in each mode, drives every scenario from a separate loader
// process (tools/bench/loader.mjs) over keep-alive connections and prints one JSON line per
// scenario and mode on stdout. Progress and diagnostics go to stderr. Everything it starts
// (apps, loaders, a Kafka broker, a temporary database and data dir) is stopped on exit, on
// SIGINT/SIGTERM and on errors.
//
// In-process scenarios (LOCAL: `classification`) need no system: each runs once, first, as a child
// process whose JSON lines are passed through.
//
// Environment: BENCH_MODES (default "embedded,distributed"), BENCH_SCENARIOS (comma list of
// names, default all), BENCH_DURATION_S (measured seconds per scenario, overrides each scenario's),
// BENCH_WARMUP_S (overrides each scenario's warm-up), KAFKA_BROKERS (distributed mode), and
// BENCH_DATABASE_URL / BENCH_REDIS_URL (default the local PostgreSQL and Redis).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarios } from './scenarios.mjs';
import { cleanupAll, killAllSync, log, startDistributed, startEmbedded, trackChild } from './system.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const MODES = { embedded: startEmbedded, distributed: startDistributed };
/** In-process scenarios: name → script (prints one JSON line per result on stdout, exits non-zero on failure). */
const LOCAL = { classification: join(here, 'classification-scale.mjs') };

function parseConfig(env) {
  const list = (v) =>
    String(v)
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const modes = list(env.BENCH_MODES ?? 'embedded,distributed');
  for (const m of modes) if (!MODES[m]) throw new Error(`BENCH_MODES: unknown mode '${m}' (embedded, distributed)`);
  const names = env.BENCH_SCENARIOS ? list(env.BENCH_SCENARIOS) : null;
  for (const n of names ?? []) {
    if (!scenarios.some((s) => s.name === n) && !LOCAL[n]) {
      throw new Error(`BENCH_SCENARIOS: unknown scenario '${n}' (known: ${[...Object.keys(LOCAL), ...scenarios.map((s) => s.name)].join(', ')})`);
    }
  }
  const num = (name) => {
    if (env[name] === undefined || env[name] === '') return undefined;
    const v = Number(env[name]);
    if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
    return v;
  };
  const durationS = num('BENCH_DURATION_S');
  if (durationS === 0) throw new Error('BENCH_DURATION_S must be positive');
  return {
    modes,
    local: Object.keys(LOCAL).filter((n) => !names || names.includes(n)),
    selected: scenarios.filter((s) => !names || names.includes(s.name)),
    durationS,
    warmupS: num('BENCH_WARMUP_S'),
  };
}

// Nothing more on stdout once interrupted: a scenario cut short has no result.
const printLine = (obj) => {
  if (!stopping) process.stdout.write(`${JSON.stringify(obj)}\n`);
};

// ---- shutdown ------------------------------------------------------------------------------

let stopping = false;
async function shutdown(code, reason) {
  if (stopping) return;
  stopping = true;
  if (reason) log(reason);
  const force = setTimeout(() => {
    log('clean-up is taking too long; killing what is left');
    process.exit(code);
  }, 45_000);
  await cleanupAll();
  clearTimeout(force);
  process.exit(code);
}
process.on('exit', killAllSync);
// kafkajs (used to probe for a broker) trips Node 24's TimeoutNegativeWarning; it is harmless noise.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) =>
  (warning?.name ?? rest[0]?.type ?? rest[0]) === 'TimeoutNegativeWarning' ? undefined : emitWarning.call(process, warning, ...rest);
for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(sig, () => {
    if (stopping) {
      killAllSync();
      process.exit(code);
    }
    void shutdown(code, `${sig}: stopping everything that was started`);
  });
}
process.on('uncaughtException', (err) => void shutdown(1, `unexpected error: ${err?.stack ?? err}`));
process.on('unhandledRejection', (err) => void shutdown(1, `unexpected error: ${err?.stack ?? err}`));

// ---- talking to the system (setup only; the load comes from the loader process) -----------

async function call(url, key, method, path, body, expect, opts = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (expect !== undefined ? res.status !== expect : !res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text.slice(0, 300)}`);
  return opts.raw ? text : text ? JSON.parse(text) : undefined;
}

/** A fresh org whose key's rate limit is far above what the box can do: measure the system, not the limiter. */
async function benchKey(system) {
  const created = await call(system.url, system.platformKey, 'POST', '/v1/orgs', { name: 'bench', rate_limit: { requests_per_second: 100000, burst: 200000 } }, 201);
  const key = created?.api_key?.key;
  if (!key) throw new Error('POST /v1/orgs returned no api_key.key');
  return key;
}

// ---- one scenario --------------------------------------------------------------------------

function runLoader(job) {
  return new Promise((resolve, reject) => {
    const child = trackChild(spawn(process.execPath, [join(here, 'loader.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] }));
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

async function runScenario(system, key, scenario, cfg) {
  const ctx = {
    mode: system.mode,
    url: system.url,
    api: (method, path, body, expect, opts) => call(system.url, key, method, path, body, expect, opts),
  };
  const { note, ...params } = (await scenario.setup?.(ctx)) ?? {};
  const job = {
    origin: system.url,
    scenario: scenario.name,
    params,
    headers: { authorization: `Bearer ${key}` },
    connections: scenario.connections,
    warmupS: cfg.warmupS ?? scenario.warmupS ?? 0,
    durationS: cfg.durationS ?? scenario.durationS,
    ...(scenario.rate ? { rate: scenario.rate } : {}),
  };
  log(
    `${system.mode} ${scenario.name}: ${job.connections} connections, ${job.rate ? `paced at ${job.rate}/s, ` : ''}` +
      `${job.warmupS} s warm-up + ${job.durationS} s measured...`,
  );
  const r = await runLoader(job);
  log(
    `${system.mode} ${scenario.name}: ${r.ops} ops in ${r.measured_s} s, mean ${r.mean_ms} ms, p90 ${r.p90_ms} ms, max ${r.max_ms} ms` +
      (r.dispatch_lag_p99_ms !== undefined ? `, dispatch lag p99 ${r.dispatch_lag_p99_ms} ms` : '') +
      (r.errors ? `, errors ${JSON.stringify(r.error_samples)}` : ''),
  );
  const dead = system.apps.filter((a) => a.child.exitCode !== null || a.child.signalCode !== null);
  if (dead.length) throw new Error(`${dead.map((a) => a.name).join(', ')} exited during the run:\n${dead.map((a) => a.output()).join('\n')}`);
  return {
    scenario: scenario.name,
    mode: system.mode,
    rps: r.rps,
    p50_ms: r.p50_ms,
    p99_ms: r.p99_ms,
    errors: r.errors,
    connections: job.connections,
    duration_s: job.durationS,
    ...(job.rate ? { rate: job.rate } : {}),
    ...(r.timed_out ? { timed_out: true } : {}),
    ...((note ?? scenario.note) ? { note: note ?? scenario.note } : {}),
  };
}

// ---- in-process scenarios ------------------------------------------------------------------

/** Runs one LOCAL script, passing its JSON lines through as they come; true when it succeeded. */
function runLocal(name) {
  log(`${name}: in process, no system...`);
  return new Promise((resolve) => {
    const child = trackChild(spawn(process.execPath, [LOCAL[name]], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 600_000);
    let out = '';
    let printed = 0;
    child.stdout.on('data', (d) => {
      out += d;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (!line) continue;
        try {
          printLine(JSON.parse(line));
          printed++;
        } catch {
          log(`${name}: not a JSON line: ${line.slice(0, 200)}`);
        }
      }
    });
    let settled = false;
    const done = (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      if (err) printLine({ scenario: name, error: err });
      resolve(!err);
    };
    child.once('error', (err) => done(String(err?.message ?? err)));
    // 'close', not 'exit': every stdout line has been read by then.
    child.once('close', (code, signal) => done(code !== 0 ? `exited with ${code ?? signal}` : printed ? undefined : 'no result'));
  });
}

// ---- main ----------------------------------------------------------------------------------

async function main() {
  let cfg;
  try {
    cfg = parseConfig(process.env);
  } catch (err) {
    log(err.message);
    return 2;
  }
  let localOk = true;
  for (const name of cfg.local) {
    if (stopping) break;
    if (!(await runLocal(name))) localOk = false;
  }
  const ran = new Set();
  const failed = new Set();
  // Only in-process scenarios selected: no system to start.
  for (const mode of cfg.selected.length ? cfg.modes : []) {
    if (stopping) break;
    const fail = (scenarioNames, err) => {
      failed.add(mode);
      const reason = String(err?.message ?? err).split('\n')[0];
      for (const name of scenarioNames) printLine({ scenario: name, mode, error: reason });
    };
    log(`starting the ${mode} system...`);
    let system;
    try {
      system = await MODES[mode]();
    } catch (err) {
      log(`${mode}: could not start: ${err?.stack ?? err}`);
      fail(
        cfg.selected.map((s) => s.name),
        `could not start ${mode}: ${err?.message ?? err}`,
      );
      continue;
    }
    try {
      let key;
      try {
        key = await benchKey(system);
      } catch (err) {
        fail(
          cfg.selected.map((s) => s.name),
          err,
        );
        continue;
      }
      for (const scenario of cfg.selected) {
        if (stopping) break;
        try {
          printLine(await runScenario(system, key, scenario, cfg));
          ran.add(mode);
        } catch (err) {
          log(`${mode} ${scenario.name} failed: ${err?.stack ?? err}`);
          fail([scenario.name], err);
        }
      }
    } finally {
      log(`stopping the ${mode} system...`);
      await system.stop();
    }
  }
  await cleanupAll();
  // Success means embedded ran (when asked for), else that some mode ran; distributed failing on a
  // box without its infrastructure is reported in its lines but does not fail the run. In-process
  // scenarios must succeed.
  const systemOk = !cfg.selected.length || (cfg.modes.includes('embedded') ? ran.has('embedded') && !failed.has('embedded') : ran.size > 0);
  return systemOk && localOk ? 0 : 1;
}

main().then(
  (code) => {
    if (!stopping) process.exit(code);
  },
  (err) => void shutdown(1, `bench failed: ${err?.stack ?? err}`),
);
