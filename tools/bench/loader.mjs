// Load generator, run as its own process by run.mjs (so the system under test and the loader do
// not share an event loop). Reads one job as JSON from argv[2] or stdin, drives the system over an
// undici Pool of keep-alive connections and prints one JSON result line on stdout; diagnostics go
// to stderr.
//
// Job: {
//   origin: 'http://127.0.0.1:<port>',  only loopback origins are accepted
//   scenario: '<name>', module?: '<path of a scenarios module>' (default ./scenarios.mjs; the
//                                        peers use ./peer-scenarios.mjs),
//   params?: {...}                       handed to the scenario's op
//   headers?: {...}                      sent with every request (e.g. authorization)
//   connections: N, warmupS, durationS,
//   rate?: ops/s                         evenly paced open loop (latency measured from the
//                                        scheduled start, so it includes queueing); else closed loop
//   maxInFlight?: paced mode only: ops beyond this many in flight are dropped (counted as errors)
//   maxOps?: stop after this many measured ops, maxSamples?: latency samples kept (reservoir)
//   timeoutS?: hard limit for the whole run (default warmup + duration + 30)
//   cpuPids?: [pid, ...]                 processes whose CPU time over the measured window is
//                                        reported per op (the system under test, not the loader)
// }
// Result: { rps, p50_ms, p99_ms, errors, ops, p90_ms, max_ms, mean_ms, measured_s, dropped,
//           error_samples, timed_out, dispatch_lag_p99_ms?, cpu_us_per_op?, collected? }
// `collected`: what the scenario's optional collect(params) returns after the run (the
// webhook-delivery scenario: which event each op caused and when its call returned). Not on a
// result printed at the hard time limit.
// A scenario's optional prepare(params, { connections }) is awaited before the clock starts (not
// timed, not under the hard limit: mcp-tools-call opens one MCP session per loop there), and its
// optional teardown(params) after the load (at most 5 s, before collect).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { cpuSeconds } from './cpu-time.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const DEFAULT_MAX_SAMPLES = 2_000_000; // 16 MB of Float64
const MAX_ERROR_KINDS = 10;

class HttpStatusError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path.split('?')[0]} -> ${status}${body ? `: ${body.slice(0, 160)}` : ''}`);
    this.status = status;
  }
}

function readJob() {
  const text = process.argv[2] ?? readFileSync(0, 'utf8');
  const job = JSON.parse(text);
  const origin = new URL(job.origin);
  if (origin.protocol !== 'http:' || !LOOPBACK.has(origin.hostname))
    throw new Error(`refusing to load ${job.origin}: only http://127.0.0.1 (loopback) origins`);
  for (const k of ['connections', 'durationS']) {
    if (!(Number(job[k]) > 0)) throw new Error(`job.${k} must be a positive number`);
  }
  return job;
}

/** The scenario's view of the system: throws HttpStatusError on a non-2xx, always drains bodies. */
function makeHttp(pool, headers) {
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  async function request(method, path, body, opts) {
    const res = await pool.request({
      method,
      path,
      headers: body === undefined ? headers : jsonHeaders,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const status = res.statusCode;
    // opts.status: exactly this status (e.g. 200 where a 202 would be a different decision).
    if (status < 200 || status > 299 || (opts?.status !== undefined && status !== opts.status)) {
      throw new HttpStatusError(method, path, status, await res.body.text().catch(() => ''));
    }
    if (opts?.json) return res.body.json();
    await res.body.arrayBuffer();
    return undefined;
  }
  return {
    request,
    get: (path, opts) => request('GET', path, undefined, opts),
    post: (path, body, opts) => request('POST', path, body, opts),
    put: (path, body, opts) => request('PUT', path, body, opts),
    patch: (path, body, opts) => request('PATCH', path, body, opts),
    delete: (path, opts) => request('DELETE', path, undefined, opts),
  };
}

/** Latencies in ms; once full, reservoir sampling keeps a uniform sample of every op. */
class Recorder {
  constructor(max) {
    this.samples = new Float64Array(max);
    this.max = max;
    this.n = 0; // ops recorded (successful)
    this.sum = 0;
    this.maxMs = 0;
    this.errors = 0;
    this.errorKinds = new Map();
  }
  ok(ms) {
    const i = this.n++;
    this.sum += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    if (i < this.max) this.samples[i] = ms;
    else {
      const j = Math.floor(Math.random() * (i + 1));
      if (j < this.max) this.samples[j] = ms;
    }
  }
  error(err) {
    this.errors++;
    const key = String(err?.message ?? err).slice(0, 200);
    if (this.errorKinds.has(key)) this.errorKinds.set(key, this.errorKinds.get(key) + 1);
    else if (this.errorKinds.size < MAX_ERROR_KINDS) this.errorKinds.set(key, 1);
  }
  percentiles(ps) {
    const n = Math.min(this.n, this.max);
    const sorted = this.samples.subarray(0, n).slice().sort();
    // Nearest rank: the smallest sample with at least p% of the samples at or below it.
    return ps.map((p) => (n === 0 ? null : sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]));
  }
}

const ms3 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);
const nowNs = () => process.hrtime.bigint();
const toMs = (ns) => Number(ns) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const job = readJob();
  const mod = await import(pathToFileURL(resolve(here, job.module ?? './scenarios.mjs')).href);
  const scenario = mod.findScenario(job.scenario);
  const params = job.params ?? {};
  const connections = Math.floor(job.connections);
  const warmupNs = BigInt(Math.round((job.warmupS ?? 0) * 1e9));
  const durationNs = BigInt(Math.round(job.durationS * 1e9));
  const maxOps = job.maxOps ?? Infinity;
  const rec = new Recorder(Math.max(1, Math.floor(job.maxSamples ?? DEFAULT_MAX_SAMPLES)));
  const timeoutS = job.timeoutS ?? (job.warmupS ?? 0) + job.durationS + 30;

  const pool = new Pool(job.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    connectTimeout: 10_000,
  });
  const http = makeHttp(pool, job.headers ?? {});
  // Before the clock starts: per-loop state the ops need (mcp-tools-call: an SDK client and its session each).
  if (scenario.prepare) await scenario.prepare(params, { connections });

  let seq = 0;
  let inFlight = 0;
  let dropped = 0;
  let timedOut = false;
  const lags = [];

  const t0 = nowNs();
  const measureStart = t0 + warmupNs;
  const measureEnd = measureStart + durationNs;
  let stopAt = measureEnd; // moves earlier when maxOps is reached
  let measuredStarted = 0;
  // CPU of the system under test over the measured window (sampled when the warm-up ends and when the load stops).
  const cpuPids = job.cpuPids ?? [];
  let cpuAtStart = null;
  let cpuUsed = null;
  const cpuStartTimer = cpuPids.length ? setTimeout(() => (cpuAtStart = cpuSeconds(cpuPids)), Number(warmupNs / 1_000_000n)) : null;
  const stopCpu = () => {
    if (cpuStartTimer) clearTimeout(cpuStartTimer);
    const now = cpuPids.length ? cpuSeconds(cpuPids) : null;
    if (cpuAtStart !== null && now !== null) cpuUsed = now - cpuAtStart;
  };

  const finish = (lastEnd) => {
    const measuredNs = (lastEnd < stopAt ? lastEnd : stopAt) - measureStart;
    const measuredS = Number(measuredNs > 0n ? measuredNs : 1n) / 1e9;
    const [p50, p90, p99] = rec.percentiles([50, 90, 99]);
    const result = {
      rps: Math.round((rec.n / measuredS) * 10) / 10,
      p50_ms: ms3(p50),
      p99_ms: ms3(p99),
      errors: rec.errors,
      ops: rec.n,
      p90_ms: ms3(p90),
      max_ms: ms3(rec.n ? rec.maxMs : null),
      mean_ms: ms3(rec.n ? rec.sum / rec.n : null),
      measured_s: Math.round(measuredS * 1000) / 1000,
      dropped,
      error_samples: Object.fromEntries(rec.errorKinds),
      timed_out: timedOut,
    };
    // Per op that reached the system (answered or failed; ops the paced loop dropped never did).
    const reached = rec.n + rec.errors - dropped;
    if (cpuUsed !== null && reached > 0) result.cpu_us_per_op = Math.round((cpuUsed * 1e6) / reached);
    if (lags.length) {
      lags.sort((a, b) => a - b);
      result.dispatch_lag_p99_ms = ms3(lags[Math.min(lags.length - 1, Math.ceil(0.99 * lags.length) - 1)]);
    }
    return result;
  };

  // Hard limit: print what we have and leave, whatever the system does.
  const hardStop = setTimeout(() => {
    timedOut = true;
    process.stderr.write(`[loader] ${job.scenario}: hard time limit ${timeoutS} s reached with ${inFlight} ops in flight\n`);
    process.stdout.write(`${JSON.stringify(finish(nowNs()))}\n`, () => process.exit(3));
  }, timeoutS * 1000);

  /** Runs one op; `startNs` is when it should have started (paced) or did start (closed loop). */
  async function runOp(startNs, loop) {
    const measured = startNs >= measureStart && startNs < stopAt;
    if (measured && ++measuredStarted >= maxOps) stopAt = nowNs();
    const it = { seq: seq++, loop };
    inFlight++;
    try {
      await scenario.op(http, params, it);
      const end = nowNs();
      if (measured) rec.ok(toMs(end - startNs));
    } catch (err) {
      if (measured) rec.error(err);
    } finally {
      inFlight--;
    }
  }

  if (!job.rate) {
    // Closed loop: `connections` loops, each one op at a time.
    const loop = async (i) => {
      for (;;) {
        const start = nowNs();
        if (start >= stopAt) return;
        await runOp(start, i);
      }
    };
    await Promise.all(Array.from({ length: connections }, (_, i) => loop(i)));
  } else {
    // Open loop, evenly paced: op k is due at t0 + k/rate whatever the system does; latency is
    // measured from the due time, so a slow answer also delays (and is charged to) later ops.
    const intervalNs = 1e9 / job.rate;
    const maxInFlight = job.maxInFlight ?? Math.max(1000, connections * 64);
    let k = 0;
    const pending = new Set();
    await new Promise((done) => {
      const tick = () => {
        const now = nowNs();
        for (;;) {
          const due = t0 + BigInt(Math.round(k * intervalNs));
          if (due >= stopAt) return done();
          if (due > now) {
            setTimeout(tick, Math.max(0, Math.floor(toMs(due - now))));
            return;
          }
          k++;
          if (due >= measureStart && lags.length < 1_000_000) lags.push(toMs(now - due));
          if (inFlight >= maxInFlight) {
            if (due >= measureStart) {
              dropped++;
              rec.error(new Error(`dropped: ${maxInFlight} ops already in flight`));
            }
            continue;
          }
          const p = runOp(due, 0);
          pending.add(p);
          p.finally(() => pending.delete(p));
        }
      };
      tick();
    });
    await Promise.all(pending);
  }
  const lastEnd = nowNs();
  stopCpu();
  clearTimeout(hardStop);
  const result = finish(lastEnd);
  if (scenario.teardown) await Promise.race([scenario.teardown(params), sleep(5000)]).catch(() => {});
  if (scenario.collect) result.collected = scenario.collect(params);
  await Promise.race([pool.close(), sleep(2000)]).catch(() => {});
  await pool.destroy().catch(() => {});
  // Exit once the line is out: a scenario's own connections (mcp-tools-call's SDK clients, on the
  // global fetch's keep-alive sockets) would otherwise keep the process alive for their idle timeout.
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`[loader] ${err?.stack ?? err}\n`);
  process.exit(1);
});
