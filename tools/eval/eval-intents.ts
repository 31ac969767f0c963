// Measures the lexical intent classifier on the labelled set in libs/intent-evaluator/eval.
// A measurement, not a gate: exits 0 unless thresholds are passed (--min-top1=0.9,
// --min-ambient-precision=0.95, --min-class=0.9; checked on the split chosen by --gate-split,
// default "test"). --splits=dev limits the report to the dev split (used while tuning, so the
// test split stays unseen). --quiet drops the per-case error list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IntentClass } from '@igw/contracts';
import { LexicalClassifier, LexicalIndex, type IntentionDocument, type LexicalClassification } from '../../libs/intent-evaluator/src/domain/classification';

interface EvalIntention {
  id: string;
  label: string;
  display_name: string;
  description: string;
  intent_class: IntentClass;
  status: 'draft' | 'active' | 'archived';
  data_elements: { data_source_id: string; path: string }[];
}

interface EvalCase {
  id: string;
  split: 'dev' | 'test';
  tool_call: { name: string; arguments?: Record<string, unknown> };
  conversation_context?: { role: string; content: string }[];
  expected_label: string;
  expected_class: string;
  note?: string;
}

interface EvalSet {
  intentions: EvalIntention[];
  cases: EvalCase[];
}

interface Outcome {
  c: EvalCase;
  r: LexicalClassification;
}

interface Metrics {
  n: number;
  top1: number;
  class_accuracy: number;
  ambient_precision: number;
  ambient_recall: number;
  ambient_predicted: number;
  ambient_expected: number;
  confident_share: number;
  confident_accuracy: number;
  brier: number;
}

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k!, v ?? 'true'] as const;
  }),
);
const file = args.get('file') ?? join(__dirname, '../../libs/intent-evaluator/eval/intent-eval-set.json');
const set = JSON.parse(readFileSync(file, 'utf8')) as EvalSet;
const shown = (args.get('splits') ?? 'dev,test').split(',');

const toDoc = (i: EvalIntention): IntentionDocument => ({
  id: i.id,
  label: i.label,
  displayName: i.display_name,
  description: i.description,
  intentClass: i.intent_class,
  status: i.status,
  dataElements: i.data_elements.map((d) => ({ dataSourceId: d.data_source_id, path: d.path })),
});

const index = new LexicalIndex();
for (const i of set.intentions) index.sync(toDoc(i));
const classifier = new LexicalClassifier(index);

const started = process.hrtime.bigint();
const outcomes: Outcome[] = set.cases.map((c) => ({
  c,
  r: classifier.classify({ toolName: c.tool_call.name, arguments: c.tool_call.arguments, conversationContext: c.conversation_context }),
}));
const perCallUs = Number(process.hrtime.bigint() - started) / 1000 / Math.max(1, outcomes.length);

const correct = (o: Outcome) => o.r.decision.label === o.c.expected_label;
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

function metrics(os: Outcome[]): Metrics {
  const predAmb = os.filter((o) => o.r.decision.kind === 'ambient');
  const expAmb = os.filter((o) => o.c.expected_label === 'ambient');
  const confident = os.filter((o) => o.r.confident);
  return {
    n: os.length,
    top1: ratio(os.filter(correct).length, os.length),
    class_accuracy: ratio(os.filter((o) => o.r.decision.intentClass === o.c.expected_class).length, os.length),
    ambient_precision: ratio(predAmb.filter((o) => o.c.expected_label === 'ambient').length, predAmb.length),
    ambient_recall: ratio(expAmb.filter((o) => o.r.decision.kind === 'ambient').length, expAmb.length),
    ambient_predicted: predAmb.length,
    ambient_expected: expAmb.length,
    confident_share: ratio(confident.length, os.length),
    confident_accuracy: ratio(confident.filter(correct).length, confident.length),
    // Mean squared gap between confidence and being right: lower is better calibrated.
    brier: os.reduce((s, o) => s + (o.r.confidence - (correct(o) ? 1 : 0)) ** 2, 0) / Math.max(1, os.length),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const line = (name: string, m: Metrics) =>
  `${name.padEnd(8)} n=${String(m.n).padEnd(4)} top-1 ${pct(m.top1).padStart(6)}  class ${pct(m.class_accuracy).padStart(6)}  ` +
  `ambient P ${pct(m.ambient_precision).padStart(6)} R ${pct(m.ambient_recall).padStart(6)} (${m.ambient_predicted} predicted / ${m.ambient_expected} expected)  ` +
  `confident ${pct(m.confident_share).padStart(6)} of calls, ${pct(m.confident_accuracy)} right  brier ${m.brier.toFixed(3)}`;

const bySplit = (s: string) => outcomes.filter((o) => o.c.split === s);
const summary: Record<string, Metrics> = {};
const active = set.intentions.filter((i) => i.status === 'active').length;
console.log(`intent classification eval: ${set.cases.length} cases, ${active} active intentions (${set.intentions.length} in the set), lexical layer only, ${perCallUs.toFixed(0)} µs/call`);
for (const s of shown) {
  summary[s] = metrics(bySplit(s));
  console.log(line(s, summary[s]!));
}
if (shown.includes('dev') && shown.includes('test')) {
  summary.all = metrics(outcomes);
  console.log(line('all', summary.all));
}

// Reliability: within each confidence band, how often the decision was right.
const visible = outcomes.filter((o) => shown.includes(o.c.split));
console.log('\nreliability (confidence band: n, mean confidence → accuracy)');
for (const [lo, hi] of [[0, 0.5], [0.5, 0.7], [0.7, 0.85], [0.85, 0.95], [0.95, 1.01]] as const) {
  const band = visible.filter((o) => o.r.confidence >= lo && o.r.confidence < hi);
  if (band.length === 0) continue;
  const mean = band.reduce((s, o) => s + o.r.confidence, 0) / band.length;
  console.log(`  [${lo.toFixed(2)}, ${Math.min(hi, 1).toFixed(2)}) n=${String(band.length).padEnd(4)} ${mean.toFixed(2)} → ${pct(ratio(band.filter(correct).length, band.length))}`);
}

// Ambient floor sweep on the dev split only (the tuning split): what each floor would give.
const dev = bySplit('dev');
if (dev.length > 0) {
  console.log(`\nambient floor sweep, dev split (current floor ${classifier.options.ambientFloor})`);
  for (const floor of [0, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25]) {
    const at = dev.map((o) => {
      const top = o.r.evidence.supporting_evidence[0];
      const label = top && o.r.signals.evidence >= floor ? top.intent_label : 'ambient';
      return { label, expected: o.c.expected_label };
    });
    const predAmb = at.filter((x) => x.label === 'ambient');
    const expAmb = at.filter((x) => x.expected === 'ambient');
    console.log(
      `  floor ${floor.toFixed(2)}: top-1 ${pct(ratio(at.filter((x) => x.label === x.expected).length, at.length))}  ` +
        `ambient P ${pct(ratio(predAmb.filter((x) => x.expected === 'ambient').length, predAmb.length))} R ${pct(ratio(expAmb.filter((x) => x.label === 'ambient').length, expAmb.length))}`,
    );
  }
}

if (args.get('quiet') !== 'true') {
  const wrong = visible.filter((o) => !correct(o));
  console.error(`\nmisclassified (${wrong.length}):`);
  for (const o of wrong) {
    const top = o.r.evidence.supporting_evidence
      .map((e) => `${e.intent_label} ${e.relative_score.toFixed(2)} [${e.matched_terms.join(' ')}]`)
      .join(' | ');
    console.error(`  ${o.c.id} ${o.c.split} ${o.c.tool_call.name}: expected ${o.c.expected_label}, got ${o.r.decision.label} (conf ${o.r.confidence.toFixed(2)}) — ${top}`);
  }
}

console.log(`\n${JSON.stringify({ eval: 'intents', layer: 'lexical', cases: set.cases.length, active_intentions: active, us_per_call: Math.round(perCallUs), ...summary })}`);

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
