// Peers of the mcp-proxy-call scenarios: the same call, the same loader and the same connection
// count against
//   cerbos          a Cerbos PDP (@cerbos/cerbos-linux-x64) with a resource policy equivalent to
//                   the card's 20 rules (proxy-card.mjs), over HTTP POST /api/check/resources;
//   bare-node-http  bare-server.mjs: node:http that only verifies the mandate (cached per token)
//                   and answers a JSON allow.
// Every process and directory started here is tracked by system.mjs (trackChild / onCleanup), so
// run.mjs's exit, signal and error handling stops them like the apps.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_CALL, cerbosCheckBody, cerbosPolicyYaml, PROXY_RULES } from './proxy-card.mjs';
import { freePorts, log, onCleanup, ROOT, runLoader, stopChild, trackChild } from './system.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const PEERS = ['cerbos', 'bare-node-http'];
export const CERBOS_BIN = join(ROOT, 'node_modules/@cerbos/cerbos-linux-x64/cerbos-linux-x64');
const START_TIMEOUT_MS = 30_000;
const OUTPUT_KEEP = 8192;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The claims of a JWT, unverified (the peers get what the system would see). */
export function jwtClaims(token) {
  const part = String(token).split('.')[1];
  if (!part) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** Spawns a tracked child keeping the tail of its output; `stop()` stops it and runs `after`. */
function spawnTracked(name, cmd, args, opts, after) {
  let out = '';
  const keep = (d) => {
    out += d.toString();
    if (out.length > OUTPUT_KEEP * 2) out = out.slice(-OUTPUT_KEEP);
  };
  const child = trackChild(spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts }));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let stopped = null;
  const stop = () =>
    (stopped ??= (async () => {
      await stopChild(child, 5000);
      unregister();
      await after?.();
    })());
  const unregister = onCleanup(stop);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return { name, child, stop, alive, output: () => out.slice(-OUTPUT_KEEP) };
}

async function waitUntil(proc, probe, what) {
  const started = Date.now();
  for (;;) {
    if (!proc.alive())
      throw new Error(
        `${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) during start-up:\n${proc.output().trim().split('\n').slice(-15).join('\n')}`,
      );
    if (await probe().catch(() => false)) break;
    if (Date.now() - started > START_TIMEOUT_MS) {
      await proc.stop();
      throw new Error(`${proc.name} did not ${what} within ${START_TIMEOUT_MS / 1000} s:\n${proc.output().trim().split('\n').slice(-15).join('\n')}`);
    }
    await sleep(100);
  }
  log(`${proc.name} up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Starts a Cerbos PDP: generated config (HTTP and gRPC on free loopback ports, disk policy store
 * in a temp dir, audit and telemetry off), `policyYaml` as its only policy, log level error.
 * Resolves when GET /_cerbos/health answers 200.
 */
export async function startCerbos(policyYaml = cerbosPolicyYaml()) {
  const dir = mkdtempSync(join(tmpdir(), 'igw-bench-cerbos-'));
  try {
    const policies = join(dir, 'policies');
    mkdirSync(policies);
    writeFileSync(join(policies, 'mcp_call.yaml'), policyYaml);
    const [httpPort, grpcPort, debugPort] = await freePorts(3);
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'server:',
        `  httpListenAddr: "127.0.0.1:${httpPort}"`,
        `  grpcListenAddr: "127.0.0.1:${grpcPort}"`,
        'storage:',
        '  driver: disk',
        '  disk:',
        `    directory: ${JSON.stringify(policies)}`,
        '    watchForChanges: false',
        'audit:',
        '  enabled: false',
        'telemetry:',
        '  disabled: true',
        '',
      ].join('\n'),
    );
    const proc = spawnTracked(
      'cerbos',
      CERBOS_BIN,
      ['server', `--config=${config}`, '--log-level=error', `--debug-listen-addr=127.0.0.1:${debugPort}`],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, CERBOS_NO_TELEMETRY: '1' } },
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const url = `http://127.0.0.1:${httpPort}`;
    await waitUntil(proc, () => fetch(`${url}/_cerbos/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok), 'answer /_cerbos/health');
    return { ...proc, url };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** One Cerbos check: { effect, outputs } of the `call` action. */
export async function cerbosCheck(url, body) {
  const res = await fetch(`${url}/api/check/resources`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`cerbos /api/check/resources -> ${res.status}: ${text.slice(0, 300)}`);
  const r = JSON.parse(text).results?.[0];
  return { effect: r?.actions?.call, outputs: (r?.outputs ?? []).map((o) => o.val) };
}

/** Starts bare-server.mjs (its own node process) with the JWKS at `jwksUrl`. */
export async function startBareServer(jwksUrl) {
  const [port] = await freePorts(1);
  const proc = spawnTracked('bare-node-http', process.execPath, [join(here, 'bare-server.mjs')], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), JWKS_URL: jwksUrl },
  });
  await waitUntil(proc, async () => proc.output().includes('"listening"'), 'listen');
  return { ...proc, url: `http://127.0.0.1:${port}` };
}

/** One call to the bare server: { status, body }. */
export async function bareCall(url, mandate, body) {
  const res = await fetch(`${url}/v1/mcp-proxy/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-mandate': mandate },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Measures each peer in turn (one at a time, so they never share the CPU) with the scenario's
 * load shape: connections, warm-up, duration and rate. `params` is the scenario's setup result
 * ({ mandate, body }); `jwksUrl` where the bare server takes the keys that signed the mandate.
 * Resolves with one entry per peer: { peer, result } or { peer, error }.
 */
export async function measurePeers({ scenarioName, params, jwksUrl, connections, warmupS, durationS, rate, peers = PEERS }) {
  const claims = jwtClaims(params.mandate);
  const out = [];
  for (const peer of peers) {
    let proc;
    try {
      let job;
      if (peer === 'cerbos') {
        proc = await startCerbos(cerbosPolicyYaml(PROXY_RULES));
        const body = cerbosCheckBody(params.body ?? BENCH_CALL, claims);
        const first = await cerbosCheck(proc.url, body);
        if (first.effect !== 'EFFECT_ALLOW' || first.outputs.length)
          throw new Error(`cerbos answered ${first.effect} ${JSON.stringify(first.outputs)} for the benchmark call (expected EFFECT_ALLOW, no rule)`);
        job = { origin: proc.url, params: { body }, headers: {} };
      } else if (peer === 'bare-node-http') {
        proc = await startBareServer(jwksUrl);
        const first = await bareCall(proc.url, params.mandate, params.body);
        if (first.status !== 200 || first.body?.decision?.kind !== 'allow')
          throw new Error(`bare-node-http answered ${first.status} ${JSON.stringify(first.body)} (expected 200 allow)`);
        job = { origin: proc.url, params: { body: params.body }, headers: { 'x-service-mandate': params.mandate } };
      } else {
        throw new Error(`unknown peer '${peer}' (known: ${PEERS.join(', ')})`);
      }
      log(`peer ${peer} (${scenarioName}): ${connections} connections, ${rate ? `paced at ${rate}/s, ` : ''}${warmupS} s warm-up + ${durationS} s measured...`);
      const r = await runLoader({
        ...job,
        module: './peer-scenarios.mjs',
        scenario: peer,
        connections,
        warmupS,
        durationS,
        ...(rate ? { rate } : {}),
        cpuPids: [proc.child.pid],
      });
      log(
        `peer ${peer} (${scenarioName}): ${r.ops} ops in ${r.measured_s} s, mean ${r.mean_ms} ms, p90 ${r.p90_ms} ms, max ${r.max_ms} ms` +
          (r.dispatch_lag_p99_ms !== undefined ? `, dispatch lag p99 ${r.dispatch_lag_p99_ms} ms` : '') +
          (r.errors ? `, errors ${JSON.stringify(r.error_samples)}` : ''),
      );
      if (!proc.alive()) throw new Error(`${peer} exited during the run:\n${proc.output()}`);
      out.push({ peer, result: r });
    } catch (err) {
      log(`peer ${peer} (${scenarioName}) failed: ${err?.stack ?? err}`);
      out.push({ peer, error: String(err?.message ?? err).split('\n')[0] });
    } finally {
      await proc?.stop();
    }
  }
  return out;
}

export const PEER_NOTES = {
  cerbos:
    'Cerbos PDP 0.55 (HTTP /api/check/resources): the 20 card rules as EFFECT_DENY rules with the same CEL conditions over resource/principal attributes + one unconditional EFFECT_ALLOW; no mandate verification, no scope check, no decision record',
  'bare-node-http':
    'bare node:http: RS256 mandate verified per request (node:crypto, result cached per token, JWKS fetched once from the system), exp/aud checked, JSON allow; no key check, no rules, no record',
};
