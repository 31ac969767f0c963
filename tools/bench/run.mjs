// `npm run bench`: starts the system in each mode, drives every scenario from a separate loader
// process (tools/bench/loader.mjs) over keep-alive connections and prints one JSON line per
// scenario and mode on stdout. Progress and diagnostics go to stderr. Everything it starts
// (apps, loaders, a Kafka broker, a temporary database and data dir) is stopped on exit, on
// SIGINT/SIGTERM and on errors.
//
// In-process scenarios (LOCAL: `classification`) need no system: each runs once, first, as a child
// process whose JSON lines are passed through.
//
// Scenarios with `peers` (mcp-proxy-call*) also measure their peers (peers.mjs: Cerbos and a bare
// node:http server) once per bench run, in the first mode whose setup succeeds, and print the peer
// lines and a ratio line (ours/peer) after our line in every mode.
//
// Custom scenarios (with `run(ctx)`, e.g. webhook-delivery, mcp-tools-call) do their own setup and load (through
// ctx.runLoader) and resolve with their line; see runCustom.
//
// Environment: BENCH_MODES (default "embedded,distributed"), BENCH_SCENARIOS (comma list of
// names, default all), BENCH_DURATION_S (measured seconds per scenario, overrides each scenario's),
// BENCH_WARMUP_S (overrides each scenario's warm-up), BENCH_PEERS (peers to measure, default
// "cerbos,bare-node-http", "none" for none), KAFKA_BROKERS (distributed mode), and
// BENCH_DATABASE_URL / BENCH_REDIS_URL (default the local PostgreSQL and Redis); webhook-delivery
// reads BENCH_WEBHOOK_EVENT, BENCH_WEBHOOK_MAX_EVENTS and BENCH_WEBHOOK_WAIT_S.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jwtClaims, measurePeers, PEER_NOTES, PEERS } from './peers.mjs';
import { scenarios } from './scenarios.mjs';
import { cleanupAll, killAllSync, log, readSettings, runLoader, startDistributed, startEmbedded, trackChild } from './system.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const MODES = { embedded: startEmbedded, distributed: startDistributed };
/** In-process scenarios: name → script (prints one JSON line per result on stdout, exits non-zero on failure). */
const LOCAL = { classification: join(here, 'classification-scale.mjs'), 'classification-cascade': join(here, 'classification-cascade.mjs') };

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
  const peers = env.BENCH_PEERS === undefined || env.BENCH_PEERS === '' ? PEERS : env.BENCH_PEERS.trim() === 'none' ? [] : list(env.BENCH_PEERS);
  for (const p of peers) if (!PEERS.includes(p)) throw new Error(`BENCH_PEERS: unknown peer '${p}' (${PEERS.join(', ')}, or none)`);
  return {
    modes,
    peers,
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
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(opts.headers ?? {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (expect !== undefined ? res.status !== expect : !res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text.slice(0, 300)}`);
  return opts.raw ? text : text ? JSON.parse(text) : undefined;
}

/** A fresh org whose key's rate limit is far above what the box can do: measure the system, not the limiter. */
async function benchKey(system, name = 'bench') {
  return (await benchOrg(system, name)).key;
}

/** A fresh org with the bench's rate limit: its id and admin key. */
async function benchOrg(system, name) {
  const created = await call(system.url, system.platformKey, 'POST', '/v1/orgs', { name, rate_limit: { requests_per_second: 100000, burst: 200000 } }, 201);
  const key = created?.api_key?.key;
  if (!key || !created?.org?.id) throw new Error('POST /v1/orgs returned no org.id or api_key.key');
  return { id: created.org.id, key };
}

// ---- one scenario --------------------------------------------------------------------------

/**
 * Sets the scenario up and runs its load: resolves with { line, params }. A failure after setup
 * carries the setup's `params` (err.params), so the peers can still be measured with them.
 */
async function runScenario(system, benchOrgKey, scenario, cfg) {
  // A scenario whose setup would collide with another's (same labels) gets an org of its own.
  const key = scenario.ownOrg ? await benchKey(system, scenario.name) : benchOrgKey;
  if (scenario.run) return { line: await runCustom(system, key, scenario, cfg), params: {} };
  const ctx = {
    mode: system.mode,
    url: system.url,
    // opts: { raw?: true (the body as text), headers?: {...} (extra request headers) }
    api: (method, path, body, expect, opts) => call(system.url, key, method, path, body, expect, opts),
  };
  const { note, ...params } = (await scenario.setup?.(ctx)) ?? {};
  try {
    await scenario.check?.(ctx, params);
    return { line: await load(system, key, scenario, cfg, params, note), params };
  } catch (err) {
    throw Object.assign(err instanceof Error ? err : new Error(String(err)), { params });
  }
}

async function load(system, key, scenario, cfg, params, note) {
  const job = {
    origin: system.url,
    scenario: scenario.name,
    params,
    headers: { authorization: `Bearer ${key}`, ...(scenario.headers?.(params) ?? {}) },
    connections: scenario.connections,
    warmupS: cfg.warmupS ?? scenario.warmupS ?? 0,
    durationS: cfg.durationS ?? scenario.durationS,
    ...(scenario.rate ? { rate: scenario.rate } : {}),
    // Every process of the system (not PostgreSQL, Kafka or Redis): its CPU per request, apart from the loader.
    cpuPids: system.apps.map((a) => a.child.pid),
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
  assertAlive(system);
  return {
    scenario: scenario.name,
    mode: system.mode,
    rps: r.rps,
    p50_ms: r.p50_ms,
    p99_ms: r.p99_ms,
    errors: r.errors,
    ...(r.cpu_us_per_op !== undefined ? { cpu_us_per_op: r.cpu_us_per_op } : {}),
    connections: job.connections,
    duration_s: job.durationS,
    ...(job.rate ? { rate: job.rate } : {}),
    ...(r.timed_out ? { timed_out: true } : {}),
    ...((note ?? scenario.note) ? { note: note ?? scenario.note } : {}),
  };
}

/** Throws when an app of the system has exited. */
function assertAlive(system) {
  const dead = system.apps.filter((a) => a.child.exitCode !== null || a.child.signalCode !== null);
  if (dead.length) throw new Error(`${dead.map((a) => a.name).join(', ')} exited during the run:\n${dead.map((a) => a.output()).join('\n')}`);
}

/**
 * A custom scenario (`run(ctx)`): it sets itself up, drives the load through ctx.runLoader (one
 * loader job; origin and scenario name are filled in) and resolves with its output line. ctx:
 *   mode, url, durationS (BENCH_DURATION_S or the scenario's), warmupS (BENCH_WARMUP_S or the
 *   scenario's), log(msg), api(...) with the bench key (as in setup),
 *   databaseUrl: the system's PostgreSQL database (distributed mode only),
 *   createOrg(name) → { id, key, api } a fresh org (admin key, the bench's rate limit),
 *   runLoader(job) → the loader result, assertAlive() throws when an app has exited,
 *   appPids: the system's process ids (a job's cpuPids),
 *   offline(fn) (embedded mode): stops the app, awaits fn(pgliteDir) on its store, starts it again.
 */
async function runCustom(system, key, scenario, cfg) {
  const ctx = {
    mode: system.mode,
    url: system.url,
    databaseUrl: system.databaseUrl,
    durationS: cfg.durationS ?? scenario.durationS,
    warmupS: cfg.warmupS ?? scenario.warmupS ?? 0,
    log,
    api: (method, path, body, expect, opts) => call(system.url, key, method, path, body, expect, opts),
    async createOrg(name) {
      const { id, key: orgKey } = await benchOrg(system, name);
      return { id, key: orgKey, api: (method, path, body, expect, opts) => call(system.url, orgKey, method, path, body, expect, opts) };
    },
    runLoader: (job) => runLoader({ origin: system.url, scenario: scenario.name, ...job }),
    assertAlive: () => assertAlive(system),
    // The system's processes, for a loader job's cpuPids (CPU per op of the system under test).
    get appPids() {
      return system.apps.map((a) => a.child.pid);
    },
    // Embedded mode: stop the app, fn(pgliteDir) on its store, start it again.
    offline: system.offline?.bind(system),
  };
  const line = await scenario.run(ctx);
  assertAlive(system);
  return line;
}

// ---- peers (scenarios with `peers`) --------------------------------------------------------

/** scenario name → { mode, results: [{peer, result} | {peer, error}] }: measured once per bench run. */
const peerRuns = new Map();
const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * After our line of a scenario with peers: measures the peers if this run has not yet (needs the
 * setup's mandate; the bare server takes the JWKS of this mode's system), then prints one line per
 * peer and, when both sides have figures, the ratio line ours/peer for rps and p99.
 */
async function reportPeers(system, scenario, cfg, params, ours) {
  if (!cfg.peers.length) return;
  let run = peerRuns.get(scenario.name);
  if (!run) {
    if (!params?.mandate) {
      log(`${system.mode} ${scenario.name}: no mandate from setup, peers not measured in this mode`);
      return;
    }
    try {
      jwtClaims(params.mandate);
    } catch {
      log(`${system.mode} ${scenario.name}: the mandate is not a JWT, peers not measured`);
      return;
    }
    const results = await measurePeers({
      scenarioName: scenario.name,
      params,
      jwksUrl: `${system.url}/v1/mandate/jwks`,
      connections: scenario.connections,
      warmupS: cfg.warmupS ?? scenario.warmupS ?? 0,
      durationS: cfg.durationS ?? scenario.durationS,
      rate: scenario.rate,
      peers: cfg.peers,
    });
    if (stopping) return;
    run = { mode: system.mode, durationS: cfg.durationS ?? scenario.durationS, results };
    peerRuns.set(scenario.name, run);
  }
  const ratio = { scenario: scenario.name, mode: system.mode, ratio: 'ours/peer', peers_measured_in_mode: run.mode };
  let ratios = 0;
  for (const { peer, result: r, error } of run.results) {
    printLine({
      scenario: scenario.name,
      peer,
      ...(error
        ? { error }
        : { rps: r.rps, p50_ms: r.p50_ms, p99_ms: r.p99_ms, errors: r.errors, ...(r.cpu_us_per_op !== undefined ? { cpu_us_per_op: r.cpu_us_per_op } : {}) }),
      connections: scenario.connections,
      duration_s: run.durationS,
      ...(scenario.rate ? { rate: scenario.rate } : {}),
      measured_in_mode: run.mode,
      ...(r?.timed_out ? { timed_out: true } : {}),
      note: PEER_NOTES[peer],
    });
    const key = peer.replace(/-/g, '_');
    if (!error && ours?.rps > 0 && r.rps > 0 && ours.p99_ms > 0 && r.p99_ms > 0) {
      ratio[`rps_vs_${key}`] = round3(ours.rps / r.rps);
      ratio[`p99_vs_${key}`] = round3(ours.p99_ms / r.p99_ms);
      if (ours.cpu_us_per_op > 0 && r.cpu_us_per_op > 0) ratio[`cpu_vs_${key}`] = round3(ours.cpu_us_per_op / r.cpu_us_per_op);
      // A peer that failed or dropped ops (paced beyond what it sustains) is not a like-for-like figure.
      if (r.errors) (ratio.peer_errors ??= {})[peer] = r.errors;
      ratios++;
    }
  }
  if (ratios) printLine({ ...ratio, ...(ours.errors ? { our_errors: ours.errors } : {}) });
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
  const cfg = readSettings(parseConfig);
  if (!cfg) return 2;
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
        let params;
        let ours;
        try {
          ({ line: ours, params } = await runScenario(system, key, scenario, cfg));
          printLine(ours);
          ran.add(mode);
        } catch (err) {
          log(`${mode} ${scenario.name} failed: ${err?.stack ?? err}`);
          fail([scenario.name], err);
          params = err?.params;
        }
        if (scenario.peers && !stopping) await reportPeers(system, scenario, cfg, params, ours);
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
