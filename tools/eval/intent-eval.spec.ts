import type { LexicalClassification } from '../../libs/intent-evaluator/src/domain/classification';
import { expectedCalibrationError, floorSweep, fnv1a, metrics, reliability, splitOf, type EvalCase, type Outcome } from './intent-eval';

const evalCase = (id: string, expected: string, split: 'dev' | 'test' = 'dev'): EvalCase => ({
  id,
  split,
  tool_call: { name: id },
  expected_label: expected,
  expected_class: expected === 'ambient' ? 'other' : 'lookup',
});

/** An outcome whose decision is `label` with `confidence`; evidence signal `evidence`. */
const outcome = (expected: string, label: string, confidence: number, evidence = 0.5, top = label): Outcome => {
  const intention = label !== 'ambient';
  const r = {
    decision: intention ? { kind: 'intention', intentionId: label, label, intentClass: 'lookup' } : { kind: 'ambient', label: 'ambient', intentClass: 'other' },
    confidence,
    confident: confidence >= 0.7,
    evidence: {
      classification_method: 'lexical',
      evaluation_layers_consulted: ['lexical'],
      confidence,
      supporting_evidence:
        top === 'ambient'
          ? []
          : [{ intent_label: top, intention_id: top, intent_class: 'lookup', score: 1, relative_score: 0.5, probability: 0.5, matched_terms: [] }],
      schema_version: 1,
    },
    signals: { relative: 0.5, margin: 0.5, actionMatch: 1, objectMatch: 1, evidence },
  } as LexicalClassification;
  return { c: evalCase(`${expected}-${label}-${confidence}`, expected), r };
};

describe('split rule', () => {
  it('is FNV-1a 32 of "intent-eval:<id>", % 10 < 3 being test', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(splitOf('c001')).toBe(fnv1a('intent-eval:c001') % 10 < 3 ? 'test' : 'dev');
  });

  it('sends about 30% of ids to test', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `c${i}`);
    const share = ids.filter((id) => splitOf(id) === 'test').length / ids.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });
});

describe('metrics', () => {
  it('counts top-1, class accuracy and ambient precision / recall', () => {
    const m = metrics([
      outcome('a', 'a', 0.9),
      outcome('a', 'b', 0.8),
      outcome('ambient', 'ambient', 0.9),
      outcome('a', 'ambient', 0.6),
      outcome('ambient', 'c', 0.4),
    ]);
    expect(m.n).toBe(5);
    expect(m.top1).toBeCloseTo(2 / 5);
    expect(m.class_accuracy).toBeCloseTo(3 / 5); // a→b is still class lookup
    expect([m.ambient_predicted, m.ambient_predicted_right, m.ambient_expected]).toEqual([2, 1, 2]);
    expect(m.ambient_precision).toBeCloseTo(0.5);
    expect(m.ambient_recall).toBeCloseTo(0.5);
    expect(m.confident_share).toBeCloseTo(3 / 5);
    expect(m.confident_accuracy).toBeCloseTo(2 / 3);
  });

  it('is defined on an empty set', () => {
    expect(metrics([])).toMatchObject({ n: 0, top1: 1, ambient_precision: 1, brier: 0 });
  });
});

describe('reliability', () => {
  it('bins by confidence and reports mean confidence and accuracy per band (1 goes in the last band)', () => {
    const bands = reliability([outcome('a', 'a', 1), outcome('a', 'b', 0.96), outcome('a', 'a', 0.3)]);
    const top = bands[bands.length - 1]!;
    expect(top).toMatchObject({ n: 2, accuracy: 0.5 });
    expect(top.meanConfidence).toBeCloseTo(0.98);
    expect(bands[0]).toMatchObject({ n: 1, accuracy: 1 });
    expect(expectedCalibrationError(bands)).toBeCloseTo((2 / 3) * 0.48 + (1 / 3) * 0.7);
  });
});

describe('floorSweep', () => {
  it('re-derives decisions from the evidence signal at each floor', () => {
    const os = [outcome('a', 'a', 0.9, 0.3), outcome('ambient', 'b', 0.6, 0.12, 'b'), outcome('ambient', 'ambient', 0.9, 0, 'ambient')];
    const [low, high] = floorSweep(os, [0.1, 0.2]);
    expect(low).toMatchObject({ floor: 0.1, ambientPrecision: 1, ambientRecall: 0.5 });
    expect(low!.top1).toBeCloseTo(2 / 3);
    expect(high).toMatchObject({ floor: 0.2, top1: 1, ambientPrecision: 1, ambientRecall: 1 });
  });
});
