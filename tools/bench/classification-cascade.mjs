// Fail-safe classification latency (DESIGN 6.15): the whole cascade as the evaluator runs it —
// bindings, examples, then the lexical layer — over an org's read model of N active intentions
// (default 1000) with E examples (default 10000) and a tenth of the intentions bound to tools.
// In process, no system; one JSON line on stdout.
//
//   node tools/bench/classification-cascade.mjs        (after `npm run build`)
//   BENCH_SCENARIOS=classification-cascade npm run bench
//
// Environment: BENCH_CASCADE_INTENTIONS (default 1000), BENCH_CASCADE_EXAMPLES (default 10000),
// BENCH_CASCADE_CALLS (measured calls, default 20000), BENCH_CASCADE_WARMUP (default 5000),
// BENCH_CLASSIFICATION_SEED (default 1).
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CALLS } from './classification-calls.mjs';
import { intentionStream } from './classification-corpus.mjs';
import { mulberry32 } from './classification-random.mjs';
import { intSetting, log, readSettings, ROOT } from './system.mjs';

const CASCADE = join(ROOT, 'dist/libs/intent-evaluator/src/application/classification/index.js');
const READ_MODEL = join(ROOT, 'dist/libs/intent-evaluator/src/application/read-model/active-intentions.read-model.js');

function settings(env) {
  const int = (name, def, min) => intSetting(env, name, def, min);
  return {
    intentions: int('BENCH_CASCADE_INTENTIONS', 1000, 1),
    examples: int('BENCH_CASCADE_EXAMPLES', 10_000, 0),
    calls: int('BENCH_CASCADE_CALLS', 20_000, 1),
    warmup: int('BENCH_CASCADE_WARMUP', 5_000, 0),
    seed: int('BENCH_CLASSIFICATION_SEED', 1, 0),
  };
}

const ownerOf = (name) => [...name].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % 997;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
const us = (ms) => Math.round(ms * 10_000) / 10;

// Argument shapes examples are taught with: some calls' own, and generic tools' SQL and commands.
const SQL = ['select * from orders where id = 1', 'delete from orders where id = 1', 'update orders set paid = true where id = 1'];

async function main() {
  const cfg = readSettings(settings);
  if (!cfg) return 2;
  for (const m of [CASCADE, READ_MODEL]) {
    if (!existsSync(m)) {
      log(`classification-cascade: ${m} is missing; run \`npm run build\` first`);
      return 1;
    }
  }
  const require = createRequire(import.meta.url);
  require('reflect-metadata');
  const { ClassificationCascade } = require(CASCADE);
  const { ActiveIntentionsReadModel } = require(READ_MODEL);
  const rand = mulberry32(cfg.seed ^ 0x2545f491);
  const stream = intentionStream(cfg.seed);
  const now = new Date(0).toISOString();
  const intentions = Array.from({ length: cfg.intentions }, (_, i) => {
    const d = stream.next().value;
    // A tenth bound to tools: some to the mix's own tools, the rest to synthetic ones.
    // (the first ones bind a third of the mix's tools, one intention each).
    const tools = i % 10 === 0 ? [i / 10 < CALLS.length / 3 ? CALLS[i / 10].toolName : `tool${i}.*`] : [];
    return {
      id: d.id,
      label: d.label,
      display_name: d.displayName,
      description: d.description,
      intent_class: d.intentClass,
      status: 'active',
      approval_required: false,
      ttl_minutes: 15,
      data_elements: d.dataElements.map((e) => ({ data_source_id: e.dataSourceId, path: e.path })),
      tools,
      version: 1,
      org_version: 1,
      created_at: now,
      updated_at: now,
    };
  });
  // Most examples are of the org's many other tools (an org teaches across its whole catalogue);
  // one in ten is of a tool in the measured mix, and one in twenty of a generic SQL tool.
  const examples = Array.from({ length: cfg.examples }, (_, i) => {
    const call = CALLS[Math.floor(rand() * CALLS.length)];
    const toolCall =
      i % 20 === 0
        ? { name: 'execute_sql', arguments: { query: SQL[i % SQL.length] } }
        : i % 10 === 1
          ? { name: call.toolName, arguments: call.arguments ?? {} }
          : { name: `svc${Math.floor(rand() * 200)}.op_${Math.floor(rand() * 20)}`, arguments: { id: `x${i}`, limit: 10 } };
    return {
      id: `iex_${i}`,
      // An org's examples of one tool mostly teach one intention (its owner), sometimes another.
      intention_id: intentions[toolCall.name.startsWith('svc') || rand() < 0.1 ? Math.floor(rand() * intentions.length) : ownerOf(toolCall.name)].id,
      tool_call: toolCall,
      covered: rand() < 0.9,
      source: 'manual',
      approval_id: null,
      org_version: 1,
      created_at: now,
    };
  });
  const board = { current: async () => 1, advance: async () => undefined };
  const registry = { activeIntentions: async () => ({ version: 1, intentions, examples }), orgsWith: async () => ({ org_ids: [] }) };
  const org = await new ActiveIntentionsReadModel(board, registry).forOrg('org_bench');
  const cascade = new ClassificationCascade(null, null, null);
  const mix = [
    ...CALLS,
    { toolName: 'execute_sql', arguments: { query: 'select count(*) from orders' } },
    { toolName: 'execute_sql', arguments: { query: 'drop table orders' } },
  ];

  for (let i = 0; i < cfg.warmup; i++) await cascade.classify(org, mix[i % mix.length]);
  const lat = new Float64Array(cfg.calls);
  const by = { binding: 0, example: 0, lexical: 0 };
  const verdicts = { certain: 0, uncertain: 0, ambient: 0 };
  const started = performance.now();
  for (let i = 0; i < cfg.calls; i++) {
    const call = mix[Math.floor(rand() * mix.length)];
    const s = performance.now();
    const r = await cascade.classify(org, call);
    lat[i] = performance.now() - s;
    by[r.evidence.classification_method] = (by[r.evidence.classification_method] ?? 0) + 1;
    verdicts[r.verdict.kind]++;
  }
  const total = performance.now() - started;
  const sorted = lat.sort();
  process.stdout.write(
    `${JSON.stringify({
      scenario: 'classification-cascade',
      intentions: cfg.intentions,
      examples: cfg.examples,
      bound_intentions: intentions.filter((x) => x.tools.length > 0).length,
      p50_us: us(percentile(sorted, 0.5)),
      p99_us: us(percentile(sorted, 0.99)),
      p999_us: us(percentile(sorted, 0.999)),
      max_us: us(sorted[sorted.length - 1]),
      ops_per_s: Math.round(cfg.calls / (total / 1000)),
      calls: cfg.calls,
      decided_by: by,
      verdicts,
      note: `in-process ClassificationCascade.classify (binding, examples, lexical; no model layers) over the evaluator's read model, one call at a time over ${mix.length} tool calls`,
    })}\n`,
  );
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    log(`classification-cascade: ${err.stack ?? err}`);
    process.exitCode = 1;
  },
);
