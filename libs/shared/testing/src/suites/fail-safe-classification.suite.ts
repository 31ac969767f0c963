import { operatorAndAgent, otherOrgClient, publishIntention } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';
import { LEDGER_INTENTION, ledgerCall, PAYOUTS_INTENTION } from '../e2e/uncertain-fixtures';

/**
 * Fail-safe classification on the legacy path (DESIGN 6.15) over HTTP, the same in every mode: an
 * uncertain match never passes without a human; bindings and examples make matches certain; the
 * approval queue teaches (approve / approve as… / deny, with `remember`). Each test uses its own
 * org, so what one teaches cannot leak into another.
 */
export function describeFailSafeClassification(mode: string, start: () => Promise<TestSystem>) {
  describe(`fail-safe classification (${mode})`, () => {
    let sys: TestSystem;

    beforeAll(async () => {
      sys = await start();
    });

    afterAll(async () => {
      await sys?.stop();
    });

    /** A fresh org: its admin, an operator (policy_write) and an agent (read_only, evaluates). */
    const org = () => operatorAndAgent(sys, 'failsafe');

    const LEDGER = LEDGER_INTENTION;
    const PAYOUTS = PAYOUTS_INTENTION;
    // Shares words with the ledger intention, but no intention is certain of it.
    const UNSURE = { ...ledgerCall({ entry_id: 'LE-1001' }), user_id: 'u_fin' };

    it('an uncertain match is pending_approval (uncertain_match, its candidates, the call) even when the intention needs no approval; approved, it passes once', async () => {
      const { operator, agent } = await org();
      await publishIntention(operator, LEDGER);
      await publishIntention(operator, PAYOUTS);
      const first = await agent.post('/v1/intent/evaluate', UNSURE);
      expect(first.body).toMatchObject({
        outcome: 'pending_approval',
        reason: 'uncertain_match',
        intent_label: 'finance.ledger_lookup',
        approval_request_id: expect.stringMatching(/^apr_/),
        classification_evidence: { certain: false, classification_method: 'lexical' },
      });
      expect(first.body.grant).toBeUndefined();
      const approval = await operator.get(`/v1/approvals/${first.body.approval_request_id}`);
      expect(approval.body).toMatchObject({
        status: 'pending',
        reason_code: 'uncertain_match',
        intent_label: 'finance.ledger_lookup',
        candidates: [expect.objectContaining({ intent_label: 'finance.ledger_lookup', confidence: expect.any(Number) })],
        tool_call: UNSURE.tool_call,
      });
      // Shadow mode reports it as a would-be refusal and queues nothing.
      expect((await agent.post('/v1/intent/evaluate', { ...UNSURE, shadow_mode: true })).body).toMatchObject({
        outcome: 'shadow_denied',
        approval_request_id: null,
      });

      expect((await operator.post(`/v1/approvals/${first.body.approval_request_id}/approve`)).body.status).toBe('approved');
      const approved = await agent.post('/v1/intent/evaluate', UNSURE);
      expect(approved.body).toMatchObject({ outcome: 'approved', intent_label: 'finance.ledger_lookup', grant: expect.any(String) });
      // Once: without remember nothing was learnt, the same call asks again.
      expect((await agent.post('/v1/intent/evaluate', UNSURE)).body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match' });
      // Shadow mode never blocks what is approved: an approved call passes (and uses its approval).
      const other = { ...UNSURE, tool_call: { ...UNSURE.tool_call, arguments: { entry_id: 'LE-1002' } } };
      const waiting = await agent.post('/v1/intent/evaluate', other);
      expect((await operator.post(`/v1/approvals/${waiting.body.approval_request_id}/approve`)).body.status).toBe('approved');
      expect((await agent.post('/v1/intent/evaluate', { ...other, shadow_mode: true })).body).toMatchObject({ outcome: 'approved', grant: expect.any(String) });
    });

    it("approve as another intention: the grant is for the operator's choice; with remember, like calls are certain for it from then on", async () => {
      const { operator, agent } = await org();
      const ledger = await publishIntention(operator, LEDGER);
      const payouts = await publishIntention(operator, PAYOUTS);
      const pending = await agent.post('/v1/intent/evaluate', UNSURE);
      expect(pending.body.intent_label).toBe('finance.ledger_lookup');
      const corrected = await operator.post(`/v1/approvals/${pending.body.approval_request_id}/approve`, { intent_label: 'finance.payout_review' });
      expect(corrected.body).toMatchObject({ status: 'approved', intent_label: 'finance.payout_review' });
      const approved = await agent.post('/v1/intent/evaluate', UNSURE);
      expect(approved.body).toMatchObject({ outcome: 'approved', intent_label: 'finance.payout_review', grant: expect.any(String) });
      expect((await agent.post('/v1/grants/verify', { token: approved.body.grant })).body.grant.intent_label).toBe('finance.payout_review');
      // Nothing was remembered: another entry is still a question.
      const other = { ...UNSURE, tool_call: { ...UNSURE.tool_call, arguments: { entry_id: 'LE-2002' } } };
      const again = await agent.post('/v1/intent/evaluate', other);
      expect(again.body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match' });

      const taught = await operator.post(`/v1/approvals/${again.body.approval_request_id}/approve`, { remember: true, intent_label: 'finance.payout_review' });
      expect(taught.body.status).toBe('approved');
      // Taught: a positive example of the chosen intention, a negative one of the candidate.
      const pos = await operator.get(`/v1/intentions/${payouts}/examples`);
      expect(pos.body.data).toEqual([expect.objectContaining({ covered: true, source: 'approval', tool_call: other.tool_call })]);
      const neg = await operator.get(`/v1/intentions/${ledger}/examples`);
      expect(neg.body.data).toEqual([expect.objectContaining({ covered: false, source: 'approval' })]);
      // A like call (a third entry) is now certain for the chosen intention, with no human.
      const like = await agent.post('/v1/intent/evaluate', { ...UNSURE, tool_call: { ...UNSURE.tool_call, arguments: { entry_id: 'LE-3003' } } });
      expect(like.body).toMatchObject({
        outcome: 'allowed',
        intent_label: 'finance.payout_review',
        classification_evidence: { classification_method: 'example', certain: true },
      });
    });

    it('deny with remember: a like call is never matched to the candidate again', async () => {
      const { operator, agent } = await org();
      const ledger = await publishIntention(operator, LEDGER);
      const pending = await agent.post('/v1/intent/evaluate', UNSURE);
      expect((await operator.post(`/v1/approvals/${pending.body.approval_request_id}/deny`, { remember: true, reason: 'not a ledger read' })).body.status).toBe(
        'denied',
      );
      expect((await operator.get(`/v1/intentions/${ledger}/examples`)).body.data).toEqual([expect.objectContaining({ covered: false })]);
      const like = await agent.post('/v1/intent/evaluate', { ...UNSURE, tool_call: { ...UNSURE.tool_call, arguments: { entry_id: 'LE-3003' } } });
      expect(like.body).toMatchObject({ outcome: 'denied', intent_label: 'ambient', approval_request_id: null });
    });

    it('examples: the same SELECT with other literals is certain; a DELETE through the same tool is not', async () => {
      const { operator, agent } = await org();
      const id = await publishIntention(operator, {
        label: 'warehouse.readonly_query',
        intent_class: 'analysis',
        display_name: 'Read-only warehouse queries',
        description: 'Run read-only SQL (SELECT) against the analytics warehouse.',
      });
      const added = await operator.post(`/v1/intentions/${id}/examples`, {
        tool_call: { name: 'execute_sql', arguments: { query: "SELECT count(*) FROM orders WHERE day = '2026-11-01'" } },
        covered: true,
      });
      expect(added.status).toBe(201);
      const select = await agent.post('/v1/intent/evaluate', {
        // The same statement on another day: like the example. Another statement is not.
        tool_call: { name: 'execute_sql', arguments: { query: "select count(*) from orders where day = '2026-11-02'" } },
      });
      expect(select.body).toMatchObject({
        outcome: 'allowed',
        classification_evidence: { classification_method: 'example', matched_examples: [added.body.id] },
      });
      const destroy = await agent.post('/v1/intent/evaluate', {
        tool_call: { name: 'execute_sql', arguments: { query: "DELETE FROM orders WHERE day = '2026-11-01'" } },
      });
      expect(destroy.body.outcome).not.toBe('allowed');
      expect(destroy.body.classification_evidence.certain).toBe(false);
      // Removed, the example no longer makes anything certain.
      expect((await operator.delete(`/v1/intentions/${id}/examples/${added.body.id}`)).status).toBe(204);
      const after = await agent.post('/v1/intent/evaluate', {
        tool_call: { name: 'execute_sql', arguments: { query: "SELECT count(*) FROM orders WHERE day = '2026-11-03'" } },
      });
      expect(after.body.classification_evidence.classification_method).not.toBe('example');
    });

    it('bindings: a bound tool is certain for its intention whatever its words; equally specific bindings go to a human with both', async () => {
      const { operator, agent } = await org();
      await publishIntention(operator, { ...LEDGER, tools: ['erp.fetch_ledger_*'] });
      const bound = await agent.post('/v1/intent/evaluate', UNSURE);
      expect(bound.body).toMatchObject({
        outcome: 'allowed',
        intent_label: 'finance.ledger_lookup',
        classification_evidence: { classification_method: 'binding', matched_binding: 'erp.fetch_ledger_*' },
      });
      await publishIntention(operator, { ...PAYOUTS, tools: ['erp.*_ledger_entry'] });
      const tie = await agent.post('/v1/intent/evaluate', UNSURE);
      expect(tie.body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match' });
      const approval = await operator.get(`/v1/approvals/${tie.body.approval_request_id}`);
      expect(approval.body.candidates.map((c: { intent_label: string }) => c.intent_label).sort()).toEqual(['finance.ledger_lookup', 'finance.payout_review']);
    });

    it('teaching from history: include=call returns the call as sent, posted as an example it makes the next like call certain; other orgs see none', async () => {
      const { operator, agent } = await org();
      const ledger = await publishIntention(operator, LEDGER);
      await publishIntention(operator, PAYOUTS);
      const context = [{ role: 'user', content: 'What is on ledger entry LE-1001?' }];
      const first = await agent.post('/v1/intent/evaluate', { ...UNSURE, conversation_context: context });
      expect(first.body).toMatchObject({ outcome: 'pending_approval', reason: 'uncertain_match' });

      const plain = await agent.get('/v1/intent/history?limit=1');
      expect(plain.body.data[0].id).toBe(first.body.intent_event_id);
      expect(plain.body.data[0]).not.toHaveProperty('call');
      const row = (await agent.get('/v1/intent/history?limit=1&include=call')).body.data[0];
      expect(row).toMatchObject({ id: first.body.intent_event_id, call: { tool_call: UNSURE.tool_call, conversation_context: context } });
      const bad = await agent.get('/v1/intent/history?include=calls');
      expect([bad.status, bad.body.code, bad.body.details?.[0]?.path]).toEqual([400, 'invalid_request', 'include']);

      // The console's "teach": the row's call as a positive example of the intention it is.
      const taught = await operator.post(`/v1/intentions/${ledger}/examples`, { ...row.call, covered: true });
      expect(taught.status).toBe(201);
      const next = await agent.post('/v1/intent/evaluate', ledgerCall({ entry_id: 'LE-2002' }));
      expect(next.body).toMatchObject({
        outcome: 'allowed',
        intent_label: 'finance.ledger_lookup',
        classification_evidence: { classification_method: 'example' },
      });

      // Another org's history never shows this org's calls.
      const stranger = await otherOrgClient(sys, 'failsafe-stranger');
      const own = await stranger.post('/v1/intent/evaluate', { tool_call: { name: 'stranger.tool', arguments: { x: 1 } } });
      const theirs = await stranger.get('/v1/intent/history?include=call');
      expect(theirs.body.data.map((e: { id: string; call: unknown }) => [e.id, e.call])).toEqual([
        [own.body.intent_event_id, { tool_call: { name: 'stranger.tool', arguments: { x: 1 } } }],
      ]);
    });
  });
}
