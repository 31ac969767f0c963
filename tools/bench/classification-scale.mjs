// Classification latency against the number of active intentions (in process, no system).
//
// For each N (default 10, 100, 1000, 10000) it generates N distinct, operator-style intentions
// from a seeded PRNG, builds the lexical index from the built dist/ output, then times
// `LexicalClassifier.classify` one call at a time over a fixed mix of realistic tool calls (some
// of them ambient: covered by no intention). One JSON line per N on stdout; diagnostics (the
// slowest calls, the commonest query terms) on stderr.
//
//   node tools/bench/classification-scale.mjs        (after `npm run build`)
//   BENCH_SCENARIOS=classification npm run bench     (builds first; no system is started)
//
// Environment: BENCH_CLASSIFICATION_SIZES (comma list, default 10,100,1000,10000),
// BENCH_CLASSIFICATION_CALLS (measured calls per N, default 20000), BENCH_CLASSIFICATION_WARMUP
// (unrecorded calls first, default 5000), BENCH_CLASSIFICATION_SEED (default 1).
//
// The corpus is one deterministic stream and each N takes its first N intentions, so the sets
// nest (10 ⊂ 100 ⊂ 1000 ⊂ 10000) the way an org's catalogue grows. Most words come from a fixed
// business vocabulary (sources, objects, fields, teams, purposes) drawn with skew, so common words
// get long posting lists; a tail of org-specific words (project code names, custom fields) keeps
// the vocabulary growing with N.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CALLS } from './classification-calls.mjs';
import { intentionStream } from './classification-corpus.mjs';
import { MULBERRY32_MODULE, mulberry32 } from './classification-random.mjs';
import { intSetting, log, readSettings, ROOT } from './system.mjs';

// The classifier (evaluator domain) and the shared lexical index it searches, as built.
const MODULES = ['dist/libs/intent-evaluator/src/domain/classification/index.js', 'dist/libs/shared/lexical-index/src/index.js'].map((m) => join(ROOT, m));
const REQUIRED = [...MODULES, MULBERRY32_MODULE];

// ---- settings ------------------------------------------------------------------------------

function settings(env) {
  const int = (name, def, min) => intSetting(env, name, def, min);
  const sizes = (env.BENCH_CLASSIFICATION_SIZES ?? '10,100,1000,10000')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('BENCH_CLASSIFICATION_SIZES must be a comma list of positive integers');
  return {
    sizes,
    calls: int('BENCH_CLASSIFICATION_CALLS', 20_000, 1),
    warmup: int('BENCH_CLASSIFICATION_WARMUP', 5_000, 0),
    seed: int('BENCH_CLASSIFICATION_SEED', 1, 0),
  };
}

// ---- measuring -----------------------------------------------------------------------------

function loadGc() {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc');
}

const MB = 1024 * 1024;
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];

function runSize(lib, docs, cfg, gc) {
  const { LexicalIndex, LexicalClassifier, buildQuery, documentFields } = lib;
  const n = docs.length;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const index = new LexicalIndex();
  index.upsertMany(docs);
  const buildMs = performance.now() - t0;
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const terms = new Set();
  for (const d of docs) for (const list of Object.values(documentFields(d))) for (const t of list) terms.add(t);

  const classifier = new LexicalClassifier(index);
  // A fixed shuffled order of the mix (same for every N), so no call always follows the same one.
  const rand = mulberry32(cfg.seed ^ 0x5bd1e995);
  const order = Int32Array.from({ length: cfg.calls }, (_, i) => i % CALLS.length);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (let i = 0; i < cfg.warmup; i++) classifier.classify(CALLS[i % CALLS.length]);
  let matched = 0;
  const lat = new Float64Array(cfg.calls);
  const startAll = performance.now();
  for (let i = 0; i < cfg.calls; i++) {
    const call = CALLS[order[i]];
    const s = performance.now();
    const r = classifier.classify(call);
    lat[i] = performance.now() - s;
    if (r.decision.kind === 'intention') matched++;
  }
  const totalMs = performance.now() - startAll;

  // Per-call diagnostics: which calls are slow at this N, and how long their terms' lists are.
  const perCall = CALLS.map(() => []);
  for (let i = 0; i < cfg.calls; i++) perCall[order[i]].push(lat[i]);
  const slowest = perCall
    .map((xs, c) => {
      const sorted = Float64Array.from(xs).sort();
      const q = buildQuery(CALLS[c]);
      const dfs = q.map((t) => index.documentFrequency(t.term)).filter((d) => d > 0);
      return { c, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), postings: dfs.reduce((a, b) => a + b, 0), maxDf: Math.max(0, ...dfs) };
    })
    .sort((a, b) => b.p99 - a.p99)
    .slice(0, 3);
  const ambientOk = CALLS.filter((c) => c.ambient && classifier.classify(c).decision.kind === 'ambient').length;
  const common = ['read', 'write', 'export', 'report', 'customer', 'account'].map((t) => `${t}=${index.documentFrequency(t)}`).join(' ');
  log(
    `classification N=${n}: ${terms.size} terms, df ${common}; ambient calls judged ambient ${ambientOk}/${CALLS.filter((c) => c.ambient).length}; ` +
      `slowest p99: ${slowest.map((s) => `${CALLS[s.c].toolName} ${round(s.p99 * 1000)} µs (p50 ${round(s.p50 * 1000)}, postings ${s.postings}, max df ${s.maxDf})`).join('; ')}`,
  );

  const sorted = lat.sort();
  const us = (ms) => round(ms * 1000, 1);
  return {
    scenario: 'classification',
    intentions: n,
    terms: terms.size,
    p50_us: us(percentile(sorted, 0.5)),
    p99_us: us(percentile(sorted, 0.99)),
    p999_us: us(percentile(sorted, 0.999)),
    max_us: us(sorted[sorted.length - 1]),
    ops_per_s: Math.round(cfg.calls / (totalMs / 1000)),
    calls: cfg.calls,
    matched_share: round(matched / cfg.calls, 3),
    build_ms: round(buildMs, 1),
    index_heap_mb: round((heapAfter - heapBefore) / MB, 2),
    note: `in-process LexicalClassifier.classify, one call at a time over ${CALLS.length} tool calls (${CALLS.filter((c) => c.ambient).length} ambient), ${cfg.warmup} warm-up calls; index_heap_mb excludes the intention objects`,
  };
}

function main() {
  const cfg = readSettings(settings);
  if (!cfg) return 2;
  const missing = REQUIRED.find((m) => !existsSync(m));
  if (missing) {
    log(`classification: ${missing} is missing; run \`npm run build\` first`);
    return 1;
  }
  const require = createRequire(import.meta.url);
  const lib = Object.assign({}, ...MODULES.map((m) => require(m)));
  const gc = loadGc();
  const max = Math.max(...cfg.sizes);
  const stream = intentionStream(cfg.seed);
  const all = Array.from({ length: max }, () => stream.next().value);
  for (const n of cfg.sizes) process.stdout.write(`${JSON.stringify(runSize(lib, all.slice(0, n), cfg, gc))}\n`);
  return 0;
}

process.exitCode = main();
