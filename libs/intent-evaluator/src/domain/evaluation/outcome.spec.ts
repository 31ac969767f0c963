import type { DataElementResult } from './data-elements';
import { decideOutcome, EVALUATION_OUTCOMES, isEvaluationOutcome, needsApproval, type OutcomeInput, type OutcomeIntention } from './outcome';

const intention = (approvalRequired: boolean): OutcomeIntention => ({ id: 'int_1', version: 3, approvalRequired });
const ok: DataElementResult = { ok: true, approved: ['crm:customers.email'] };
const refused: DataElementResult = { ok: false, refused: ['ssn'] };
const input = (over: Partial<OutcomeInput>): OutcomeInput => ({
  intention: intention(false),
  dataElements: ok,
  shadowMode: false,
  approvedApprovalAvailable: false,
  ...over,
});

describe('evaluation outcome', () => {
  it('knows the five outcomes', () => {
    expect(EVALUATION_OUTCOMES).toEqual(['allowed', 'denied', 'pending_approval', 'approved', 'shadow_denied']);
    expect(isEvaluationOutcome('approved')).toBe(true);
    expect(isEvaluationOutcome('allow')).toBe(false);
    expect(isEvaluationOutcome(1)).toBe(false);
  });

  it('never allows an uncertain match: it waits for a human even when the intention needs no approval', () => {
    expect(decideOutcome(input({ match: 'uncertain' }))).toEqual({
      outcome: 'pending_approval',
      policyId: 'int_1@3',
      needsApprovalRequest: true,
      consumesApproval: false,
      grantable: false,
      reason: 'uncertain_match',
    });
    expect(decideOutcome(input({ match: 'uncertain', approvedApprovalAvailable: true }))).toMatchObject({ outcome: 'approved', grantable: true });
    expect(decideOutcome(input({ match: 'uncertain', shadowMode: true }))).toMatchObject({ outcome: 'shadow_denied', needsApprovalRequest: false });
    expect(decideOutcome(input({ match: 'uncertain', dataElements: refused }))).toMatchObject({ outcome: 'denied', reason: 'data_element_refused' });
    expect(needsApproval(intention(false), 'uncertain')).toBe(true);
    expect(needsApproval(intention(false), 'certain')).toBe(false);
    expect(needsApproval(intention(true), 'certain')).toBe(true);
    expect(needsApproval(null, 'uncertain')).toBe(false);
  });

  it('allows a matched call that needs no approval, with a grant', () => {
    expect(decideOutcome(input({}))).toEqual({
      outcome: 'allowed',
      policyId: 'int_1@3',
      needsApprovalRequest: false,
      consumesApproval: false,
      grantable: true,
      reason: null,
    });
    // An approval lying around is not used when none is required.
    expect(decideOutcome(input({ approvedApprovalAvailable: true })).consumesApproval).toBe(false);
  });

  it('denies the ambient cluster', () => {
    expect(decideOutcome(input({ intention: null, dataElements: { ok: true, approved: [] } }))).toEqual({
      outcome: 'denied',
      policyId: 'ambient',
      needsApprovalRequest: false,
      consumesApproval: false,
      grantable: false,
      reason: 'ambient',
    });
  });

  it('denies a refused data element, even when approval is required or already given', () => {
    for (const i of [intention(false), intention(true)]) {
      const d = decideOutcome(input({ intention: i, dataElements: refused, approvedApprovalAvailable: true }));
      expect(d).toMatchObject({ outcome: 'denied', reason: 'data_element_refused', grantable: false, needsApprovalRequest: false, consumesApproval: false });
    }
  });

  it('holds an approval-required call for approval', () => {
    expect(decideOutcome(input({ intention: intention(true) }))).toEqual({
      outcome: 'pending_approval',
      policyId: 'int_1@3',
      needsApprovalRequest: true,
      consumesApproval: false,
      grantable: false,
      reason: 'approval_required',
    });
  });

  it('approves it once an approval is available, consuming that approval', () => {
    expect(decideOutcome(input({ intention: intention(true), approvedApprovalAvailable: true }))).toEqual({
      outcome: 'approved',
      policyId: 'int_1@3',
      needsApprovalRequest: false,
      consumesApproval: true,
      grantable: true,
      reason: null,
    });
  });

  describe('shadow mode', () => {
    it.each([
      ['ambient', { intention: null }, 'ambient'],
      ['refused data element', { dataElements: refused }, 'data_element_refused'],
      ['approval required', { intention: intention(true) }, 'approval_required'],
    ] as const)('reports a would-be block (%s) as shadow_denied, creating no approval and no grant', (_name, over, reason) => {
      expect(decideOutcome(input({ ...over, shadowMode: true }))).toMatchObject({
        outcome: 'shadow_denied',
        needsApprovalRequest: false,
        consumesApproval: false,
        grantable: false,
        reason,
      });
    });

    it('leaves allowed and approved calls as they are', () => {
      expect(decideOutcome(input({ shadowMode: true }))).toMatchObject({ outcome: 'allowed', grantable: true });
      // Still one grant per approval: shadow mode must not become a way around "once".
      expect(decideOutcome(input({ shadowMode: true, intention: intention(true), approvedApprovalAvailable: true }))).toMatchObject({
        outcome: 'approved',
        grantable: true,
        consumesApproval: true,
      });
    });

    it('keeps the policy id', () => {
      expect(decideOutcome(input({ shadowMode: true, intention: null })).policyId).toBe('ambient');
      expect(decideOutcome(input({ shadowMode: true, dataElements: refused })).policyId).toBe('int_1@3');
    });
  });
});
