import type { IntentCardEventV1 } from '@igw/contracts';
import type { DecisionRecord } from '../../domain';
import { CALLER, cardEvent, claims, failure, GateFixture, request, TOKEN } from './tool-call-decision-gate.fixture';

/** What the gate makes of each engine decision (ids, approvals, reviews, the record), and its two halves used apart (the MCP proxy). */
describe('ToolCallDecisionGate: decision kinds and a mandate verified before', () => {
  let fixture: GateFixture;
  beforeEach(async () => {
    fixture = await GateFixture.create();
  });
  const call = () => fixture.gate.verifyAndDecide(CALLER, TOKEN, request());

  describe('each decision kind, as the engine gives it and as it is answered and recorded', () => {
    const DECIDES = { id: 'r', when: 'action.operation == "crm.contacts.read"' };
    type RuleDecision = IntentCardEventV1['rules'][number]['decision'];
    const withRule = (decision: RuleDecision) => {
      fixture.registry.snapshot = { version: 1, cards: [cardEvent('crm', { rules: [{ ...DECIDES, decision }] })] };
    };
    const id = expect.any(String);
    const none = { reason: null, shadowKind: null, approvalRequestId: null, reviewId: null, reviewStatus: null };

    it.each<[string, RuleDecision, Record<string, unknown>, Partial<DecisionRecord>]>([
      ['allow', { kind: 'allow' }, {}, none],
      ['allow_with_log_extra', { kind: 'allow_with_log_extra', log_fields: { bulk: true } }, { log_fields: { bulk: true } }, none],
      ['allow_with_redact', { kind: 'allow_with_redact', redact_fields: ['arguments.id'] }, { redact_fields: ['arguments.id'] }, none],
      [
        'allow_with_downgrade',
        { kind: 'allow_with_downgrade', downgraded_action: { operation: 'crm.contacts.read' } },
        { downgraded_action: { operation: 'crm.contacts.read' } },
        none,
      ],
      [
        'allow_with_shadow',
        { kind: 'allow_with_shadow', shadow_decision: { kind: 'deny' } },
        { shadow_decision: { kind: 'deny', reason: 'rule_denied', message: 'denied by rule r' } },
        { ...none, shadowKind: 'deny' },
      ],
      [
        'defer',
        { kind: 'defer' },
        { review_id: expect.stringMatching(/^rev_/) },
        { ...none, reviewId: expect.stringMatching(/^rev_/), reviewStatus: 'pending' },
      ],
      [
        'negotiate',
        { kind: 'negotiate', suggested_action: { operation: 'crm.contacts.read' }, message: 'ask less' },
        { suggested_action: { operation: 'crm.contacts.read' }, message: 'ask less' },
        none,
      ],
      [
        'substitute',
        { kind: 'substitute', replacement_action: { operation: 'crm.contacts.read' } },
        { replacement_action: { operation: 'crm.contacts.read' } },
        none,
      ],
      ['approval', { kind: 'approval' }, { approval_request_id: 'apr_1' }, { ...none, approvalRequestId: 'apr_1' }],
      ['step_up', { kind: 'step_up', required_acr: 'mfa' }, { required_acr: 'mfa' }, none],
      ['deny', { kind: 'deny', reason: 'no_reads', message: 'not today' }, { reason: 'no_reads', message: 'not today' }, { ...none, reason: 'no_reads' }],
      ['deny_with_reroute', { kind: 'deny_with_reroute', reroute_card_id: 'hr', message: 'use hr' }, { reroute_card_id: 'hr', message: 'use hr' }, none],
    ])('%s', async (kind, ruleDecision, fields, recorded) => {
      withRule(ruleDecision);
      const res = await call();
      expect(res.decision).toEqual({ kind, decision_id: id, rule_id: 'r', ...fields });
      expect(fixture.repository.recorded).toHaveLength(1);
      expect(fixture.repository.recorded[0]).toMatchObject({ kind, ruleId: 'r', stage: 'rule', decisionId: res.decision.decision_id, ...recorded });
      // The answer is the decision as recorded, the very object.
      expect(fixture.repository.recorded[0]?.decision).toBe(res.decision);
    });
  });

  describe('decide: a mandate verified before (the MCP proxy, once per HTTP request)', () => {
    it('decides and records without asking the verifier, the board or the registry again', async () => {
      const verified = await fixture.gate.verifyMandate(CALLER, TOKEN, 'crm-api');
      expect(verified.claims.jti).toBe('mnd_1');
      expect(verified.card.id).toBe('crm');
      const [verifications, reads] = [fixture.verifier.calls.length, fixture.registry.calls];
      fixture.board.current = () => Promise.reject(new Error('not asked'));
      const res = await fixture.gate.decide(CALLER, verified, request());
      expect(res.decision.kind).toBe('allow');
      expect(res.mandate).toBe(verified.claims);
      expect([fixture.verifier.calls.length, fixture.registry.calls]).toEqual([verifications, reads]);
      expect(fixture.repository.recorded).toHaveLength(1);
    });

    it('verifyMandate refuses a missing card (intent_not_found) and an invalid mandate (mandate_invalid) before any decision', async () => {
      fixture.verifier.verdict = { ok: true, claims: claims({ intent_id: 'gone' }) };
      expect((await failure(fixture.gate.verifyMandate(CALLER, TOKEN, 'crm-api'))).code).toBe('intent_not_found');
      fixture.verifier.verdict = { ok: false, reason: 'expired' };
      expect((await failure(fixture.gate.verifyMandate(CALLER, TOKEN, 'crm-api'))).code).toBe('mandate_invalid');
      expect(fixture.repository.recorded).toEqual([]);
    });
  });
});
