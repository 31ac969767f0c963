// Standalone check of the mcp-proxy-call peers, no system needed (no build, no database):
//
//   node tools/bench/peer-check.mjs            checks only (a few seconds)
//   node tools/bench/peer-check.mjs --load     checks, then short loads of each peer with the
//                                              scenarios' shapes (closed loop, then paced), printing
//                                              one JSON line per peer and shape on stdout
//
// Checks:
// 1. the card (proxy-card.mjs) under @bufbuild/cel, as the decision proxy evaluates it (variables
//    action, context, mandate; first match wins): no rule matches the benchmark call and none fails
//    on it; each rule's probe is decided by that rule. (The install validator itself runs when the
//    scenario installs the card.)
// 2. Cerbos with the generated policy: EFFECT_ALLOW and no rule output for the benchmark call;
//    EFFECT_DENY for every probe, the first activated rule in card order being the probed one.
// 3. bare-server.mjs against a JWKS served here with a freshly generated RSA key: a token signed
//    with it gets 200 allow; a bad signature, an unknown kid, an expired token and a wrong
//    audience get 401.
//
// BENCH_DURATION_S (default 3) and BENCH_WARMUP_S (default 1) size the loads; BENCH_PEERS picks
// the peers (default cerbos,bare-node-http). Everything started is stopped on exit and signals.
import { celEnv, CelScalar, isCelError, mapType, parse, plan } from '@bufbuild/cel';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer } from 'node:http';
import { BENCH_CALL, cerbosCheckBody, PROXY_CARD, PROXY_DISPENSE, PROXY_RULES, probeCall, RULE_PROBES } from './proxy-card.mjs';
import { bareCall, cerbosCheck, measurePeers, PEERS, startBareServer, startCerbos } from './peers.mjs';
import { findScenario } from './scenarios.mjs';
import { cleanupAll, freePorts, killAllSync, log } from './system.mjs';

const args = new Set(process.argv.slice(2));
let failures = 0;
const check = (ok, what) => {
  if (!ok) failures++;
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

let stopping = false;
process.on('exit', killAllSync);
for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(sig, () => {
    if (stopping) process.exit(code);
    stopping = true;
    void cleanupAll().finally(() => process.exit(code));
  });
}

/** Mandate claims as the mandate issuer writes them (DESIGN 6.8) for PROXY_DISPENSE. */
function claimsFor(now, over = {}) {
  return {
    iss: 'igw-bench-check',
    sub: PROXY_DISPENSE.actor,
    aud: PROXY_DISPENSE.audience,
    org: 'org_bench',
    intent_id: PROXY_DISPENSE.intent_id,
    prompt_id: PROXY_DISPENSE.prompt_id,
    scope: { ...PROXY_DISPENSE.requested_scope, forbidden_operations: PROXY_CARD.allowed_scope.forbidden_operations },
    ctx: PROXY_DISPENSE.context,
    acr: PROXY_DISPENSE.context.acr,
    iat: now,
    nbf: now,
    exp: now + 3600,
    jti: `mdt_${randomBytes(8).toString('hex')}`,
    ...over,
  };
}

// ---- 1. the card under @bufbuild/cel ---------------------------------------------------------

function checkCard(claims) {
  const dyn = mapType(CelScalar.STRING, CelScalar.DYN);
  const env = celEnv({ variables: { action: dyn, context: dyn, mandate: dyn } });
  const programs = PROXY_RULES.map((r) => [r.id, plan(env, parse(r.when))]);
  /** The first rule that matches, null when none does; a rule that errors is reported as `error:<id>`. */
  const firstMatch = (call, mandate) => {
    for (const [id, program] of programs) {
      const v = program({ action: call.action, context: call.context, mandate });
      if (isCelError(v) || typeof v !== 'boolean') return `error:${id}: ${v?.message ?? v}`;
      if (v) return id;
    }
    return null;
  };
  check(PROXY_RULES.length === 20 && new Set(PROXY_RULES.map((r) => r.id)).size === 20, 'the card has 20 rules with distinct ids');
  const bench = firstMatch(BENCH_CALL, claims);
  check(bench === null, `no rule matches the benchmark call, none fails on it (got ${bench})`);
  for (const r of PROXY_RULES) {
    const { call, mandate } = probeCall(r.id);
    const got = firstMatch(call, { ...claims, ...mandate });
    check(got === r.id, `probe of ${r.id} is decided by it (got ${got})`);
  }
  check(Object.keys(RULE_PROBES).length === PROXY_RULES.length, 'every rule has a probe');
}

// ---- 2. Cerbos -------------------------------------------------------------------------------

async function checkCerbos(claims) {
  const cerbos = await startCerbos();
  try {
    const bench = await cerbosCheck(cerbos.url, cerbosCheckBody(BENCH_CALL, claims));
    check(bench.effect === 'EFFECT_ALLOW' && bench.outputs.length === 0, `cerbos: benchmark call → ${bench.effect}, outputs ${JSON.stringify(bench.outputs)}`);
    const order = PROXY_RULES.map((r) => r.id);
    for (const r of PROXY_RULES) {
      const { call, mandate } = probeCall(r.id);
      const got = await cerbosCheck(cerbos.url, cerbosCheckBody(call, { ...claims, ...mandate }));
      const activated = got.outputs.map((o) => o.rule_id).sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const kind = got.outputs.find((o) => o.rule_id === r.id)?.kind;
      check(
        got.effect === 'EFFECT_DENY' && activated[0] === r.id && kind === r.decision.kind,
        `cerbos: probe of ${r.id} → ${got.effect}, first activated ${activated[0]} (${kind})`,
      );
    }
  } finally {
    await cerbos.stop();
  }
}

// ---- 3. the bare server ----------------------------------------------------------------------

function signJwt(privateKey, kid, claims) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${b64({ alg: 'RS256', typ: 'mandate+jwt', kid })}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

/** A JWKS endpoint of our own (the system's GET /v1/mandate/jwks stands in for it in the bench). */
async function serveJwks(publicKey, kid) {
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const [port] = await freePorts(1);
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise((r) => server.listen({ host: '127.0.0.1', port }, r));
  return { url: `http://127.0.0.1:${port}/v1/mandate/jwks`, close: () => new Promise((r) => server.close(() => r())) };
}

async function checkBare(keys) {
  const bare = await startBareServer(keys.jwks.url);
  try {
    const now = Math.floor(Date.now() / 1000);
    const good = signJwt(keys.privateKey, keys.kid, claimsFor(now));
    const ok = await bareCall(bare.url, good, BENCH_CALL);
    check(
      ok.status === 200 && ok.body?.decision?.kind === 'allow' && ok.body?.mandate?.intent_id === PROXY_CARD.id,
      `bare: signed mandate → ${ok.status} ${JSON.stringify(ok.body)}`,
    );
    const again = await bareCall(bare.url, good, BENCH_CALL);
    check(again.status === 200, `bare: same mandate again (cached) → ${again.status}`);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const cases = [
      ['a signature by another key', signJwt(other, keys.kid, claimsFor(now))],
      ['an unknown kid', signJwt(keys.privateKey, 'kid-unknown', claimsFor(now))],
      ['an expired mandate', signJwt(keys.privateKey, keys.kid, claimsFor(now, { exp: now - 5 }))],
      ['another audience', signJwt(keys.privateKey, keys.kid, claimsFor(now, { aud: 'billing-api' }))],
      ['a truncated token', good.slice(0, -10)],
    ];
    for (const [what, token] of cases) {
      const r = await bareCall(bare.url, token, BENCH_CALL);
      check(r.status === 401 && r.body?.code === 'mandate_invalid', `bare: ${what} → ${r.status}`);
    }
    return good;
  } finally {
    await bare.stop();
  }
}

// ---- main ------------------------------------------------------------------------------------

async function main() {
  const peers = process.env.BENCH_PEERS
    ? process.env.BENCH_PEERS.split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : PEERS;
  for (const p of peers) if (!PEERS.includes(p)) throw new Error(`BENCH_PEERS: unknown peer '${p}' (${PEERS.join(', ')})`);
  const now = Math.floor(Date.now() / 1000);
  checkCard(claimsFor(now));
  await checkCerbos(claimsFor(now));
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `bench-${randomBytes(4).toString('hex')}`;
  const jwks = await serveJwks(publicKey, kid);
  try {
    const mandate = await checkBare({ privateKey, kid, jwks });
    if (failures) return 1;
    if (!args.has('--load')) return 0;
    const durationS = Number(process.env.BENCH_DURATION_S || 3);
    const warmupS = Number(process.env.BENCH_WARMUP_S ?? 1);
    for (const name of ['mcp-proxy-call', 'mcp-proxy-call-paced']) {
      if (stopping) break;
      const s = findScenario(name);
      const results = await measurePeers({
        scenarioName: name,
        params: { mandate, body: BENCH_CALL },
        jwksUrl: jwks.url,
        connections: s.connections,
        warmupS,
        durationS,
        rate: s.rate,
        peers,
      });
      for (const { peer, result: r, error } of results) {
        const line = {
          scenario: name,
          peer,
          ...(error ? { error } : { rps: r.rps, p50_ms: r.p50_ms, p99_ms: r.p99_ms, errors: r.errors }),
          connections: s.connections,
          duration_s: durationS,
          ...(s.rate ? { rate: s.rate } : {}),
          standalone: true,
        };
        if (!stopping) process.stdout.write(`${JSON.stringify(line)}\n`);
        // A peer that cannot start or answer wrongly fails the check; errors under load (a paced
        // rate beyond what the peer sustains drops ops) are a measurement, reported in the line.
        if (error) failures++;
      }
    }
    return failures ? 1 : 0;
  } finally {
    await jwks.close();
  }
}

main().then(
  async (code) => {
    await cleanupAll();
    log(failures ? `${failures} check(s) failed` : 'all checks passed');
    process.exit(code);
  },
  async (err) => {
    log(`peer-check failed: ${err?.stack ?? err}`);
    await cleanupAll();
    process.exit(1);
  },
);
