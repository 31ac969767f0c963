import { failSafeFigures, halfOf, operatorAction, type Answered } from './fail-safe-eval';
import type { EvalCase } from './intent-eval';

const c = (id: string, expected: string): EvalCase => ({ id, split: 'dev', tool_call: { name: 't' }, expected_label: expected, expected_class: 'lookup' });
const a = (expected: string, outcome: string, label: string, reason: string | null = null): Answered => ({ c: c('x', expected), outcome, label, reason });

describe('fail-safe figures', () => {
  it('counts wrong allows over all calls, auto-coverage and false denials over covered calls, uncertain holds over all', () => {
    const f = failSafeFigures([
      a('crm.read', 'allowed', 'crm.read'),
      a('crm.read', 'allowed', 'crm.write'),
      a('ambient', 'allowed', 'crm.read'),
      a('billing.refund', 'pending_approval', 'billing.refund', 'approval_required'),
      a('crm.read', 'pending_approval', 'crm.read', 'uncertain_match'),
      a('crm.read', 'denied', 'ambient', 'ambient'),
      a('ambient', 'denied', 'ambient', 'ambient'),
      a('ambient', 'pending_approval', 'crm.read', 'uncertain_match'),
    ]);
    expect(f).toMatchObject({ n: 8, covered: 5, counts: { wrong_allow: 2, auto: 2, false_deny: 1, pending: 2 } });
    expect(f.wrong_allow).toBe(2 / 8);
    expect(f.auto_coverage).toBe(2 / 5);
    expect(f.false_deny).toBe(1 / 5);
    expect(f.pending).toBe(2 / 8);
  });

  it('splits a set in two halves by hash, both non-empty', () => {
    const halves = Array.from({ length: 100 }, (_, i) => halfOf(`case-${i}`));
    expect(halves.filter((h) => h === 'worked').length).toBeGreaterThan(30);
    expect(halves.filter((h) => h === 'measured').length).toBeGreaterThan(30);
  });

  it('the operator answers the queue with the truth and teaches what the history shows wrong', () => {
    const pending = (label: string, reason = 'uncertain_match') => ({ outcome: 'pending_approval', label, reason, approvalId: 'apr_1' });
    expect(operatorAction('crm.read', pending('crm.read'))).toEqual({ kind: 'approve', approvalId: 'apr_1', remember: true });
    expect(operatorAction('crm.write', pending('crm.read'))).toEqual({ kind: 'approve', approvalId: 'apr_1', remember: true, intentLabel: 'crm.write' });
    expect(operatorAction('ambient', pending('crm.read'))).toEqual({ kind: 'deny', approvalId: 'apr_1', remember: true });
    expect(operatorAction('crm.write', pending('crm.read', 'approval_required'))).toEqual({
      kind: 'deny',
      approvalId: 'apr_1',
      remember: true,
      thenExample: 'crm.write',
    });
    expect(operatorAction('ambient', { outcome: 'allowed', label: 'crm.read', reason: null, approvalId: null })).toEqual({
      kind: 'examples',
      negative: 'crm.read',
    });
    expect(operatorAction('crm.write', { outcome: 'allowed', label: 'crm.read', reason: null, approvalId: null })).toEqual({
      kind: 'examples',
      negative: 'crm.read',
      positive: 'crm.write',
    });
    expect(operatorAction('crm.read', { outcome: 'denied', label: 'ambient', reason: 'ambient', approvalId: null })).toEqual({
      kind: 'examples',
      positive: 'crm.read',
    });
    expect(operatorAction('crm.read', { outcome: 'allowed', label: 'crm.read', reason: null, approvalId: null })).toEqual({ kind: 'none' });
  });
});
