// The measurement behind `npm run eval:intents`: the labelled set's shape, the split rule, the
// metrics and the reliability table. Pure functions; the CLI is
// eval-intents.ts.
import type { IntentClass } from '@igw/contracts';
import type { IntentionDocument, LexicalClassification } from '../../libs/intent-evaluator/src/domain/classification';

export interface EvalIntention {
  id: string;
  label: string;
  display_name: string;
  description: string;
  intent_class: IntentClass;
  status: 'draft' | 'active' | 'archived';
  data_elements: { data_source_id: string; path: string }[];
}

export interface EvalCase {
  id: string;
  split: 'dev' | 'test';
  tool_call: { name: string; arguments?: Record<string, unknown> };
  conversation_context?: { role: string; content: string }[];
  expected_label: string;
  expected_class: string;
  /** Sets written for issue 15 grade their cases; the first set's are unmarked (counted as easy). */
  difficulty?: 'easy' | 'hard';
  hard_kind?: 'paraphrase' | 'no_shared_word' | 'arguments_carry_meaning' | 'near_miss';
  /** The tool's own `tools/list` entry, as the gateway knows it for calls through its MCP proxy. */
  tool?: { description?: string; input_schema?: unknown };
  note?: string;
}

export interface EvalSet {
  /** Each set is one organisation: its own intentions, its own calls. */
  org?: string;
  intentions: EvalIntention[];
  cases: EvalCase[];
}

export interface Outcome {
  c: EvalCase;
  r: LexicalClassification;
  /** The set (organisation) the case belongs to. */
  set?: string;
}

export const toDocument = (i: EvalIntention): IntentionDocument => ({
  id: i.id,
  label: i.label,
  displayName: i.display_name,
  description: i.description,
  intentClass: i.intent_class,
  status: i.status,
  dataElements: i.data_elements.map((d) => ({ dataSourceId: d.data_source_id, path: d.path })),
});

/** FNV-1a (32 bit) over the UTF-8 bytes of `text`. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The split rule: FNV-1a of `intent-eval:<id>`, `% 10 < 3` is test. Nobody picks a case's split. */
export const splitOf = (id: string): 'dev' | 'test' => (fnv1a(`intent-eval:${id}`) % 10 < 3 ? 'test' : 'dev');

export const isCorrect = (o: Outcome): boolean => o.r.decision.label === o.c.expected_label;

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

export interface Metrics {
  n: number;
  top1: number;
  class_accuracy: number;
  ambient_precision: number;
  ambient_recall: number;
  /** Ambient decisions that were right / all ambient decisions. */
  ambient_predicted: number;
  ambient_predicted_right: number;
  ambient_expected: number;
  confident_share: number;
  confident_accuracy: number;
  /** Mean squared gap between confidence and being right: lower is better calibrated. */
  brier: number;
}

export function metrics(os: readonly Outcome[]): Metrics {
  const predAmb = os.filter((o) => o.r.decision.kind === 'ambient');
  const expAmb = os.filter((o) => o.c.expected_label === 'ambient');
  const confident = os.filter((o) => o.r.confident);
  const predAmbRight = predAmb.filter((o) => o.c.expected_label === 'ambient').length;
  return {
    n: os.length,
    top1: ratio(os.filter(isCorrect).length, os.length),
    class_accuracy: ratio(os.filter((o) => o.r.decision.intentClass === o.c.expected_class).length, os.length),
    ambient_precision: ratio(predAmbRight, predAmb.length),
    ambient_recall: ratio(expAmb.filter((o) => o.r.decision.kind === 'ambient').length, expAmb.length),
    ambient_predicted: predAmb.length,
    ambient_predicted_right: predAmbRight,
    ambient_expected: expAmb.length,
    confident_share: ratio(confident.length, os.length),
    confident_accuracy: ratio(confident.filter(isCorrect).length, confident.length),
    brier: os.reduce((s, o) => s + (o.r.confidence - (isCorrect(o) ? 1 : 0)) ** 2, 0) / Math.max(1, os.length),
  };
}

export interface ReliabilityBand {
  lo: number;
  hi: number;
  n: number;
  meanConfidence: number;
  accuracy: number;
}

export const RELIABILITY_BANDS: readonly (readonly [number, number])[] = [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.85],
  [0.85, 0.95],
  [0.95, 1],
];

/** Within each confidence band [lo, hi) (the last one includes 1): calls, mean confidence, accuracy. */
export function reliability(os: readonly Outcome[], bands = RELIABILITY_BANDS): ReliabilityBand[] {
  return bands.map(([lo, hi], i) => {
    const last = i === bands.length - 1;
    const band = os.filter((o) => o.r.confidence >= lo && (o.r.confidence < hi || (last && o.r.confidence <= hi)));
    return {
      lo,
      hi,
      n: band.length,
      meanConfidence: band.reduce((s, o) => s + o.r.confidence, 0) / Math.max(1, band.length),
      accuracy: ratio(band.filter(isCorrect).length, band.length),
    };
  });
}

/**
 * Expected calibration error: the call-weighted mean gap between mean confidence and accuracy
 * over the reliability bands.
 */
export function expectedCalibrationError(bands: readonly ReliabilityBand[]): number {
  const n = bands.reduce((s, b) => s + b.n, 0);
  return bands.reduce((s, b) => s + (b.n / Math.max(1, n)) * Math.abs(b.meanConfidence - b.accuracy), 0);
}

/** What each floor on P(covered) would give on `os` (decisions re-derived from `signals.evidence`). */
export function floorSweep(
  os: readonly Outcome[],
  floors: readonly number[],
): { floor: number; top1: number; ambientPrecision: number; ambientRecall: number }[] {
  return floors.map((floor) => {
    const at = os.map((o) => {
      const top = o.r.evidence.supporting_evidence[0];
      return { label: top && o.r.signals.evidence >= floor ? top.intent_label : 'ambient', expected: o.c.expected_label };
    });
    const predAmb = at.filter((x) => x.label === 'ambient');
    const expAmb = at.filter((x) => x.expected === 'ambient');
    return {
      floor,
      top1: ratio(at.filter((x) => x.label === x.expected).length, at.length),
      ambientPrecision: ratio(predAmb.filter((x) => x.expected === 'ambient').length, predAmb.length),
      ambientRecall: ratio(expAmb.filter((x) => x.label === 'ambient').length, expAmb.length),
    };
  });
}
