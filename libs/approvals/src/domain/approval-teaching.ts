import { invalidRequest, type ErrorDetail } from '@igw/kernel';
import type { Approval } from './approval';

/**
 * Teaching from the approval queue (DESIGN 6.15): an operator deciding a legacy-path request may
 * `remember` the call as an example of the candidate intention (or of the intention they correct
 * the match to, with `intent_label`). Pure rules; the use cases ask the registry to store it.
 */

/** What an operator asked for besides the decision. */
export interface TeachingRequest {
  remember?: boolean;
  /** Approving only: the intention the call really is. */
  intentLabel?: string | null;
}

/** One example to store: the call as a positive (`covered`) or negative example of an intention. */
export interface Lesson {
  intentionLabel: string;
  covered: boolean;
}

/**
 * 400 naming `remember` / `intent_label` when the request cannot be taught from: only an
 * evaluate-source request with a stored call (and a candidate) can.
 */
export function assertTeachable(a: Approval, request: TeachingRequest): void {
  const asked = [
    ...(request.remember === true ? ['remember'] : []),
    ...(request.intentLabel !== undefined && request.intentLabel !== null ? ['intent_label'] : []),
  ];
  if (asked.length === 0 || (a.source === 'evaluate' && a.toolCall !== null && a.intentLabel !== null)) return;
  const details: ErrorDetail[] = asked.map((path) => ({
    path,
    message: `${path} applies only to requests of POST /v1/intent/evaluate that hold the evaluated call; this one is source ${a.source}${a.toolCall === null ? ' without a call' : ''}`,
  }));
  throw invalidRequest(details[0]?.message ?? 'cannot teach from this request', details);
}

/**
 * What `remember` stores. Approving: a positive example of the corrected intention (or of the
 * candidate), and when corrected to another one, a negative example of the candidate. Denying: a
 * negative example of the candidate. `a` is the request as it was before the decision.
 */
export function lessonsOf(a: Approval, decision: 'approved' | 'denied', correctedLabel?: string | null): Lesson[] {
  const candidate = a.intentLabel;
  if (candidate === null) return [];
  if (decision === 'denied') return [{ intentionLabel: candidate, covered: false }];
  const approved = correctedLabel ?? candidate;
  return approved === candidate
    ? [{ intentionLabel: candidate, covered: true }]
    : [
        { intentionLabel: approved, covered: true },
        { intentionLabel: candidate, covered: false },
      ];
}
