// Measures the lexical intent classifier on the labelled set in libs/intent-evaluator/eval.
// A measurement, not a gate: exits 0 unless thresholds are passed (--min-top1=0.9,
// --min-ambient-precision=0.95, --min-class=0.9, --min-ambient-recall; checked on the split
// chosen by --gate-split, default "test"). --splits=dev limits the report to the dev split (used
// while tuning, so the test split stays unseen). --quiet drops the per-case error list.
// --fit refits the ranker's weights on the dev split and prints them (--ridge=, --steps=; --cv
// first prints 5-fold cross-validation within dev for a few ridges); --weights=<json> measures
// other weights without editing lexical-ranker.ts.
// --file=<path> measures one set of the same shape; by default every set is measured: the first
// one (intent-eval-set.json) and each organisation in eval/sets/, each against its own intentions.
// --sets=a,b limits the report to those sets (their `org`, or `first`).
// Last, the fail-safe figures of DESIGN 6.15 (cold and taught: wrong-allow, auto-coverage,
// false-deny, pending), measured through the public API of a built embedded gateway it starts
// (`npm run eval:intents` builds first); --no-gateway skips them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IntentClass } from '@igw/contracts';
import {
  AMBIENT_FEATURES,
  CANDIDATE_FEATURES,
  LexicalClassifier,
  LexicalIndex,
  rankerProbabilities,
  type RankerWeights,
} from '../../libs/intent-evaluator/src/domain/classification';
import { fitRanker, rankerLoss, type RankerSample } from './fit-ranker';
import { runFailSafe } from './fail-safe-run';
import {
  expectedCalibrationError,
  floorSweep,
  isCorrect,
  metrics,
  reliability,
  splitOf,
  toDocument,
  type EvalSet,
  type Metrics,
  type Outcome,
} from './intent-eval';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k = '', ...rest] = a.replace(/^--/, '').split('=');
    const v = rest.length > 0 ? rest.join('=') : undefined;
    return [k, v ?? 'true'] as const;
  }),
);
const evalDir = join(__dirname, '../../libs/intent-evaluator/eval');
const setFiles = args.has('file')
  ? [args.get('file') as string]
  : [
      join(evalDir, 'intent-eval-set.json'),
      ...(existsSync(join(evalDir, 'sets')) ? readdirSync(join(evalDir, 'sets')) : [])
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(evalDir, 'sets', f)),
    ];
const wanted = args.get('sets')?.split(',');
const sets = setFiles
  .map((f) => {
    const set = JSON.parse(readFileSync(f, 'utf8')) as EvalSet;
    return { name: set.org ?? (basename(f) === 'intent-eval-set.json' ? 'first' : basename(f, '.json')), set };
  })
  .filter((s) => wanted === undefined || wanted.includes(s.name));
const shown = (args.get('splits') ?? 'dev,test').split(',');

for (const { name, set } of sets) {
  const misfiled = set.cases.filter((c) => c.split !== splitOf(c.id));
  if (misfiled.length > 0)
    console.warn(`warning: ${name}: ${misfiled.length} case(s) not in the split the hash rule gives: ${misfiled.map((c) => c.id).join(' ')}`);
}

// One index per set: each set is an organisation with its own intentions.
const classifiers = sets.map(({ name, set }) => {
  const index = new LexicalIndex<IntentClass>();
  for (const i of set.intentions) index.sync(toDocument(i));
  return {
    name,
    set,
    classifier: new LexicalClassifier(index, args.has('weights') ? { weights: JSON.parse(args.get('weights') as string) as RankerWeights } : {}),
  };
});
const first = classifiers[0];
if (first === undefined) throw new Error('no eval set matched --sets');
const classifier = first.classifier;
const allCases = sets.flatMap((s) => s.set.cases);

const classifyAll = (): Outcome[] =>
  classifiers.flatMap(({ name, set, classifier: c }) =>
    set.cases.map((k) => ({
      c: k,
      set: name,
      r: c.classify({ toolName: k.tool_call.name, arguments: k.tool_call.arguments, conversationContext: k.conversation_context }),
    })),
  );
// Warm up (JIT, caches), then time a few passes: steady state is what serves traffic. A rough
// figure on a small corpus; tools/bench/classification-scale.mjs measures latency against size.
const PASSES = 10;
for (let i = 0; i < PASSES; i++) classifyAll();
const started = process.hrtime.bigint();
for (let i = 0; i < PASSES - 1; i++) classifyAll();
const outcomes = classifyAll();
const perCallUs = Number(process.hrtime.bigint() - started) / 1000 / Math.max(1, PASSES * outcomes.length);

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const bySplit = (s: string) => outcomes.filter((o) => o.c.split === s);
const visible = outcomes.filter((o) => shown.includes(o.c.split));
const active = sets.reduce((n, { set }) => n + set.intentions.filter((i) => i.status === 'active').length, 0);
const intentionCount = sets.reduce((n, { set }) => n + set.intentions.length, 0);
const splitNote: Record<string, string> = { dev: 'tuning split', test: 'held out', all: 'dev + test' };

console.log(
  `intent classification eval, lexical layer only: ${allCases.length} cases in ${sets.length} set(s) ${sets.map((x) => `${x.name} (${x.set.cases.length})`).join(', ')} ` +
    `(${bySplit('dev').length} dev, ${bySplit('test').length} test), ${active} active intentions (${intentionCount} in the sets), ${perCallUs.toFixed(1)} µs/call`,
);

// Per-split summary: one row per split, dev and test never mixed.
const summary: Record<string, Metrics> = {};
for (const s of shown) summary[s] = metrics(bySplit(s));
if (shown.includes('dev') && shown.includes('test')) summary.all = metrics(outcomes);
// The same per split, by set and by difficulty (a case without a grade counts as easy).
for (const sp of shown) {
  if (sets.length > 1) for (const { name } of sets) summary[`${sp}/${name}`] = metrics(bySplit(sp).filter((o) => o.set === name));
  for (const d of ['easy', 'hard'] as const) {
    const os = bySplit(sp).filter((o) => (o.c.difficulty ?? 'easy') === d);
    if (os.length > 0) summary[`${sp}/${d}`] = metrics(os);
  }
}
const header = ['split', 'n', 'top-1', 'class', 'ambient P', 'ambient R', 'confident (right)', 'brier'];
const rows = Object.entries(summary).map(([s, m]) => [
  splitNote[s] ? `${s} (${splitNote[s]})` : `  ${s}`,
  String(m.n),
  pct(m.top1),
  pct(m.class_accuracy),
  `${pct(m.ambient_precision)} (${m.ambient_predicted_right}/${m.ambient_predicted})`,
  `${pct(m.ambient_recall)} (${Math.round(m.ambient_recall * m.ambient_expected)}/${m.ambient_expected})`,
  `${pct(m.confident_share)} (${pct(m.confident_accuracy)})`,
  m.brier.toFixed(3),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const table = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`;
console.log(`\n${table(header)}`);
for (const r of rows) console.log(table(r));

// Reliability: within each confidence band, how often the decision was right, per split.
for (const s of Object.keys(summary).filter((k) => !k.includes('/'))) {
  const os = s === 'all' ? visible : bySplit(s);
  const bands = reliability(os);
  console.log(`\nreliability, ${s} (${splitNote[s] ?? s}): confidence band → n, mean confidence, accuracy; ECE ${expectedCalibrationError(bands).toFixed(3)}`);
  for (const b of bands) {
    if (b.n === 0) continue;
    console.log(
      `  [${b.lo.toFixed(2)}, ${b.hi.toFixed(2)}${b.hi === 1 ? ']' : ')'}  n=${String(b.n).padEnd(4)} ${b.meanConfidence.toFixed(2)} → ${pct(b.accuracy)}`,
    );
  }
}

const dev = bySplit('dev');
// Ambient floor sweep on the dev split only (the tuning split): what each floor would give.
if (dev.length > 0) {
  console.log(`\nambient threshold sweep, dev split: ambient when P(covered) is below the floor (the classifier takes the likelier alternative)`);
  for (const f of floorSweep(dev, [0.2, 0.3, 0.4, 0.5, 0.6, 0.7])) {
    console.log(`  floor ${f.floor.toFixed(2)}: top-1 ${pct(f.top1)}  ambient P ${pct(f.ambientPrecision)} R ${pct(f.ambientRecall)}`);
  }
}

// Refit the ranker on dev (maximum likelihood of the labelled choice among the candidates and
// the ambient alternative) and print the weights to put in lexical-ranker.ts.
if (args.get('fit') === 'true') {
  const samples: RankerSample[] = [];
  let unreachable = 0;
  for (const { set, classifier: c } of classifiers)
    for (const k of set.cases.filter((x) => x.split === 'dev')) {
      const { features } = c.rank({ toolName: k.tool_call.name, arguments: k.tool_call.arguments, conversationContext: k.conversation_context });
      const target = k.expected_label === 'ambient' ? -1 : features.candidates.findIndex((x) => x.hit.doc.label === k.expected_label);
      if (k.expected_label !== 'ambient' && target < 0) unreachable++;
      else samples.push({ features, target });
    }
  const ridge = Number(args.get('ridge') ?? 0.001);
  // Ridge chosen by 5-fold cross-validation within dev (top-1 of the held-out folds).
  if (args.has('cv')) {
    const fold = (i: number) => i % 5;
    for (const r of [0.01, 0.003, 0.001, 0.0003, 0.0001]) {
      let right = 0;
      let nll = 0;
      for (let f = 0; f < 5; f++) {
        const train = samples.filter((_, i) => fold(i) !== f);
        const held = samples.filter((_, i) => fold(i) === f);
        const { weights: w } = fitRanker(train, classifier.options.weights, { ridge: r, steps: 1500 });
        for (const x of held) {
          const p = rankerProbabilities(x.features, w);
          let best = -1;
          let bp = p.ambient;
          p.candidates.forEach((v, i) => {
            if (v > bp) {
              bp = v;
              best = i;
            }
          });
          if (best === x.target) right++;
          nll -= Math.log(Math.max(1e-12, x.target >= 0 ? (p.candidates[x.target] ?? 0) : p.ambient));
        }
      }
      console.log(`  cv ridge ${r}: top-1 ${pct(right / samples.length)}, log-loss ${(nll / samples.length).toFixed(4)}`);
    }
  }
  const start = classifier.options.weights;
  const before = rankerLoss(samples, start, ridge).loss;
  const { weights, loss } = fitRanker(samples, start, { ridge, steps: Number(args.get('steps') ?? 3000) });
  console.log(`
ranker fit on dev: ${samples.length} calls (${unreachable} whose intention is not among the candidates left out), ridge ${ridge}, loss ${before.toFixed(4)} → ${loss.toFixed(4)}`);
  console.log(`  candidate: ${CANDIDATE_FEATURES.map((f, k) => `${f} ${weights.candidate[k]}`).join(', ')}`);
  console.log(`  ambient: ${AMBIENT_FEATURES.map((f, k) => `${f} ${weights.ambient[k]}`).join(', ')}`);
  console.log(`  ${JSON.stringify(weights)}`);
}

if (args.get('quiet') !== 'true') {
  const wrong = visible.filter((o) => !isCorrect(o));
  console.error(`\nmisclassified (${wrong.length}):`);
  for (const o of wrong) {
    const top = o.r.evidence.supporting_evidence.map((e) => `${e.intent_label} ${e.relative_score.toFixed(2)} [${e.matched_terms.join(' ')}]`).join(' | ');
    console.error(
      `  ${o.c.id} ${o.c.split}${o.c.difficulty === 'hard' ? ` hard:${o.c.hard_kind ?? '?'}` : ''} ${o.c.tool_call.name}: expected ${o.c.expected_label}, got ${o.r.decision.label} (conf ${o.r.confidence.toFixed(2)}) — ${top}`,
    );
  }
}

console.log(
  `\n${JSON.stringify({ eval: 'intents', layer: 'lexical', sets: sets.map((x) => x.name), cases: allCases.length, active_intentions: active, us_per_call: Math.round(perCallUs * 10) / 10, ...summary })}`,
);

if (args.get('no-gateway') !== 'true') {
  const splits = (['dev', 'test'] as const).filter((s) => shown.includes(s));
  void runFailSafe(sets, splits).then(
    (reports) => {
      console.log(
        `\nfail-safe figures (DESIGN 6.15) through the public API, lexical layer only; taught: half of each split worked by an operator, the other half measured`,
      );
      const head = ['set', 'split', 'run', 'n', 'wrong-allow', 'auto-coverage', 'false-deny', 'pending'];
      const lines = reports.flatMap((r) =>
        (['cold', 'taught'] as const).map((run) => {
          const f = r[run];
          return [
            r.set,
            r.split,
            run,
            String(f.n),
            `${pct(f.wrong_allow)} (${f.counts.wrong_allow})`,
            `${pct(f.auto_coverage)} (${f.counts.auto}/${f.covered})`,
            `${pct(f.false_deny)} (${f.counts.false_deny})`,
            `${pct(f.pending)} (${f.counts.pending})`,
          ];
        }),
      );
      const w = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
      for (const l of [head, ...lines]) console.log(`  ${l.map((c, i) => c.padEnd(w[i] ?? 0)).join('  ')}`);
      for (const r of reports)
        for (const run of ['cold', 'taught'] as const)
          for (const x of r[run].wrong)
            console.error(`  wrong allow ${r.set} ${r.split} ${run}: ${x.id} ${x.tool} as ${x.allowed_as} (truth ${x.truth}, by ${x.method})`);
      console.log(JSON.stringify({ eval: 'fail-safe', reports }));
    },
    (err: unknown) => {
      console.error(`fail-safe run failed: ${(err as Error).message}`);
      process.exitCode = 1;
    },
  );
}

const gateSplit = args.get('gate-split') ?? 'test';
const gated = summary[gateSplit] ?? metrics(bySplit(gateSplit));
const failures: string[] = [];
const gate = (flag: string, value: number) => {
  const min = args.get(flag);
  if (min !== undefined && value < Number(min)) failures.push(`${flag.replace('min-', '')} ${pct(value)} < ${pct(Number(min))}`);
};
gate('min-top1', gated.top1);
gate('min-class', gated.class_accuracy);
gate('min-ambient-precision', gated.ambient_precision);
gate('min-ambient-recall', gated.ambient_recall);
if (failures.length > 0) {
  console.error(`eval:intents (${gateSplit}) below threshold: ${failures.join('; ')}`);
  process.exit(1);
}
