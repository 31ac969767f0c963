// The fail-safe figures of DESIGN 6.15, measured through the public API of a running gateway:
// cold (intentions only) and taught (an operator works half of the calls from the approval queue
// and the history, the other half is measured). Pure bookkeeping here; the HTTP driving is in
// fail-safe-run.ts.
import { fnv1a, type EvalCase } from './intent-eval';

/** What the gateway answered for one measured call. */
export interface Answered {
  c: EvalCase;
  outcome: string;
  label: string;
  reason: string | null;
  /** The layer that decided (`binding`, `example`, `lexical`, …), for the error list. */
  method?: string;
}

export interface FailSafeFigures {
  n: number;
  covered: number;
  /** Allowed (or approved) under a label that is not the truth — ambient truths included — over all calls. */
  wrong_allow: number;
  /** Covered calls the gateway decided right without a human: allowed under the truth, or held for the truth's own required approval. */
  auto_coverage: number;
  /** Covered calls denied, over covered calls. */
  false_deny: number;
  /** Calls held because the match was uncertain, over all calls. */
  pending: number;
  counts: { wrong_allow: number; auto: number; false_deny: number; pending: number };
  /** The wrong allows, to read: case id, tool, what it was allowed as, the truth, the deciding layer. */
  wrong: { id: string; tool: string; allowed_as: string; truth: string; method: string }[];
}

const passed = (a: Answered) => a.outcome === 'allowed' || a.outcome === 'approved';

export function failSafeFigures(answers: readonly Answered[]): FailSafeFigures {
  const covered = answers.filter((a) => a.c.expected_label !== 'ambient');
  const wrongs = answers.filter((a) => passed(a) && a.label !== a.c.expected_label);
  const wrong = wrongs.length;
  const auto = covered.filter(
    (a) => a.label === a.c.expected_label && (passed(a) || (a.outcome === 'pending_approval' && a.reason === 'approval_required')),
  ).length;
  const falseDeny = covered.filter((a) => a.outcome === 'denied').length;
  const pending = answers.filter((a) => a.outcome === 'pending_approval' && a.reason === 'uncertain_match').length;
  const ratio = (x: number, n: number) => (n === 0 ? 0 : x / n);
  return {
    n: answers.length,
    covered: covered.length,
    wrong_allow: ratio(wrong, answers.length),
    auto_coverage: ratio(auto, covered.length),
    false_deny: ratio(falseDeny, covered.length),
    pending: ratio(pending, answers.length),
    counts: { wrong_allow: wrong, auto, false_deny: falseDeny, pending },
    wrong: wrongs.map((a) => ({ id: a.c.id, tool: a.c.tool_call.name, allowed_as: a.label, truth: a.c.expected_label, method: a.method ?? '?' })),
  };
}

/** Which half of a split a case is in for the taught run: the operator's (worked) or the measured one. A hash, so nobody picks. */
export const halfOf = (id: string): 'worked' | 'measured' => (fnv1a(`taught:${id}`) % 2 === 0 ? 'worked' : 'measured');

/** What a careful operator does about one call of theirs, given what the gateway answered (DESIGN 6.15 "Measured"). */
export type OperatorAction =
  | { kind: 'approve'; approvalId: string; remember: true; intentLabel?: string }
  | { kind: 'deny'; approvalId: string; remember: true; thenExample?: string }
  | { kind: 'examples'; positive?: string; negative?: string }
  | { kind: 'none' };

export function operatorAction(truth: string, answer: { outcome: string; label: string; reason: string | null; approvalId: string | null }): OperatorAction {
  const { outcome, label, approvalId } = answer;
  if (outcome === 'pending_approval' && approvalId) {
    // The queue: approve with the truth (correcting the candidate when it is wrong), or deny and remember.
    if (truth === 'ambient') return { kind: 'deny', approvalId, remember: true };
    if (answer.reason === 'approval_required' && truth !== label) return { kind: 'deny', approvalId, remember: true, thenExample: truth };
    return truth === label ? { kind: 'approve', approvalId, remember: true } : { kind: 'approve', approvalId, remember: true, intentLabel: truth };
  }
  if (outcome === 'allowed' || outcome === 'approved') {
    // The history shows a wrong allow: never that intention again, and the right one when there is one.
    if (label === truth) return { kind: 'none' };
    return { kind: 'examples', negative: label, ...(truth !== 'ambient' ? { positive: truth } : {}) };
  }
  // A covered call denied as ambient: taught from the history.
  if (outcome === 'denied' && answer.reason === 'ambient' && truth !== 'ambient') return { kind: 'examples', positive: truth };
  return { kind: 'none' };
}
