import type { EvaluationOutcome } from '../evaluation/outcome';

/** One re-decided call: its outcome and label as recorded and as replayed. */
export interface ReplayedDecision {
  outcome: EvaluationOutcome;
  intentLabel: string;
}

/** A call changed when its outcome or its label did. */
export const changed = (before: ReplayedDecision, after: ReplayedDecision): boolean =>
  before.outcome !== after.outcome || before.intentLabel !== after.intentLabel;
