import { createHash } from 'node:crypto';
import { cardsKey, revocationsKey, type MemoryVersionBoard } from '@igw/events';
import { toErrorResponse } from '@igw/http';
import { AppError, DependencyUnavailableError } from '@igw/kernel';
import type { ToolCallCommand, ToolCallDecision } from '../../domain';
import type { ToolCallDecisionGate } from './tool-call-decision-gate';
import {
  CALLER,
  cardEvent,
  claims,
  failure,
  GateFixture,
  nested,
  ORG,
  request,
  T0,
  TOKEN,
  type FakeApprovals,
  type FakeIssuer,
  type FakeRegistry,
  type FakeRepository,
  type FakeVerifier,
} from './tool-call-decision-gate.fixture';

const kindOf = (d: ToolCallDecision): string => d.decision.kind;

describe('ToolCallDecisionGate', () => {
  let fixture: GateFixture;
  let verifier: FakeVerifier;
  let registry: FakeRegistry;
  let issuer: FakeIssuer;
  let board: MemoryVersionBoard;
  let approvals: FakeApprovals;
  let repository: FakeRepository;
  let gate: ToolCallDecisionGate;

  const build = (over: Parameters<GateFixture['build']>[0] = {}) => fixture.build(over);

  beforeEach(async () => {
    fixture = await GateFixture.create();
    ({ verifier, registry, issuer, board, approvals, repository, gate } = fixture);
  });

  const call = (req: ToolCallCommand = request(), token: string | undefined = TOKEN): Promise<ToolCallDecision> => gate.verifyAndDecide(CALLER, token, req);

  describe('before the engine (DESIGN 6.9 steps 2–4)', () => {
    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['blank', '   '],
    ])('refuses a %s X-Service-Mandate: 401 mandate_invalid, the verifier not asked', async (_name, token) => {
      const err = await failure(gate.verifyAndDecide(CALLER, token, request()));
      expect(err.code).toBe('mandate_invalid');
      expect(toErrorResponse(err).status).toBe(401);
      // The refusal names the header and what goes in it.
      expect(err.message).toMatch(/X-Service-Mandate header is missing.*POST \/v1\/mandate\/dispense/);
      expect(verifier.calls).toEqual([]);
      expect(repository.recorded).toEqual([]);
    });

    it('passes the trimmed token with the audience and the caller org to the verifier', async () => {
      await call(request(), `  ${TOKEN} `);
      expect(verifier.calls).toEqual([[TOKEN, { audience: 'crm-api', orgId: ORG }]]);
    });

    it('answers 401 mandate_invalid for a token the verifier refuses', async () => {
      verifier.verdict = { ok: false, reason: 'signature' };
      const err = await failure(call());
      expect(err.code).toBe('mandate_invalid');
      expect(toErrorResponse(err).status).toBe(401);
      expect(repository.recorded).toEqual([]);
    });

    it('answers 403 mandate_org_mismatch for a valid mandate of another org', async () => {
      verifier.verdict = { ok: false, reason: 'org_mismatch', claims: claims({ org: 'org_2' }) };
      const err = await failure(call());
      expect(err.code).toBe('mandate_org_mismatch');
      expect(toErrorResponse(err).status).toBe(403);
      expect(repository.recorded).toEqual([]);
    });

    it('answers 404 intent_not_found when the mandate names a card the org does not have', async () => {
      verifier.verdict = { ok: true, claims: claims({ intent_id: 'gone' }) };
      const err = await failure(call());
      expect(err.code).toBe('intent_not_found');
      expect(toErrorResponse(err).status).toBe(404);
      expect(repository.recorded).toEqual([]);
    });

    it('catches revocations up to the board before verifying: a just-revoked mandate is refused at once', async () => {
      await call();
      issuer.page = { version: 1, revoked: [{ cred_id: 'mnd_1', expires_at: '2026-11-22T12:05:00.000Z' }] };
      await board.advance(revocationsKey(ORG), 1);
      const err = await failure(call());
      expect(err.code).toBe('mandate_invalid');
      expect((err as AppError & { reason?: string }).reason).toBe('revoked');
    });

    it('sees a card installed after the last call once the board moves (snapshot)', async () => {
      verifier.verdict = { ok: true, claims: claims({ intent_id: 'hr' }) };
      expect((await failure(call())).code).toBe('intent_not_found');
      registry.snapshot = { version: 2, cards: [cardEvent('crm', { org_version: 2 }), cardEvent('hr', { org_version: 2 })] };
      await board.advance(cardsKey(ORG), 2);
      expect(kindOf(await call())).toBe('allow');
    });

    it('fails closed with DependencyUnavailableError (503) when the version board throws', async () => {
      gate = build({ board: { current: () => Promise.reject(new Error('redis down')), advance: async () => undefined } });
      const err = await failure(call());
      expect(err).toBeInstanceOf(DependencyUnavailableError);
      expect(toErrorResponse(err).status).toBe(503);
      expect(verifier.calls).toEqual([]);
      expect(repository.recorded).toEqual([]);
    });

    it('answers 400 invalid_request naming action.arguments for arguments nested deeper than 64', async () => {
      const err = await failure(call(request({ arguments: nested(70) })));
      expect(err.code).toBe('invalid_request');
      expect(toErrorResponse(err).status).toBe(400);
      expect(err.message).toContain('action.arguments');
      expect(err.extra['details']).toEqual([expect.objectContaining({ path: 'action.arguments' })]);
      expect(repository.recorded).toEqual([]);
    });

    it('answers 400 naming context for a context nested deeper than 64', async () => {
      const err = await failure(call(request({}, { context: { actor: 'agent-1', deep: nested(70) } })));
      expect(err.code).toBe('invalid_request');
      expect(err.message).toContain('context');
    });

    it('accepts arguments nested within the limit', async () => {
      expect(kindOf(await call(request({ arguments: nested(60) })))).toBe('allow');
    });
  });

  describe('allow', () => {
    it('records the decision before it answers allow with the decision and the verified mandate', async () => {
      const res = await call();
      expect(res.decision).toEqual({ kind: 'allow', decision_id: expect.stringMatching(/^dec_[0-9a-f]{32}$/) });
      expect(res.mandate).toMatchObject({ jti: 'mnd_1', prompt_id: 'prm_1', intent_id: 'crm' });
      expect(res.decision).not.toHaveProperty('rule_id');
      expect(repository.recorded).toHaveLength(1);
      const record = repository.recorded[0]!;
      expect(record).toMatchObject({
        decisionId: res.decision.decision_id,
        orgId: ORG,
        keyId: 'key_1',
        kind: 'allow',
        ruleId: null,
        stage: 'default',
        reason: null,
        credId: 'mnd_1',
        intentId: 'crm',
        promptId: 'prm_1',
        actor: 'agent-1',
        audience: 'crm-api',
        surface: 'sdk',
        operation: 'crm.contacts.read',
        targetResource: 'crm://contacts/42',
        approvalRequestId: null,
        reviewId: null,
        reviewStatus: null,
        createdAt: T0,
      });
      expect(record.decision).toEqual(res.decision);
      expect(record.argumentsSha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('keeps the call as decided (action, context) with the record while retention is on and it is under the cap (DESIGN 6.16)', async () => {
      const sent = request({ arguments: { id: 42, note: 'Ada' } });
      await call(sent);
      expect(repository.recorded[0]!.call).toEqual({ action: sent.action, context: sent.context });
      await build({ callRetention: { days: 0, maxBytes: 65536 } }).verifyAndDecide(CALLER, TOKEN, sent);
      await build({ callRetention: { days: 7, maxBytes: 100 } }).verifyAndDecide(CALLER, TOKEN, request({ arguments: { text: 'x'.repeat(200) } }));
      expect(repository.recorded.map((r) => r.kind)).toEqual(['allow', 'allow', 'allow']);
      expect(repository.recorded.slice(1).map((r) => r.call)).toEqual([null, null]);
    });

    it('a mandate bound to no prompt: any context.prompt_id passes, the record carries prompt_id null', async () => {
      const { prompt_id: _prompt, ...unbound } = claims();
      verifier.verdict = { ok: true, claims: unbound };
      const res = await call(request({}, { context: { actor: 'agent-1', prompt_id: 'prm_whatever' } }));
      expect(res.decision).toEqual({ kind: 'allow', decision_id: expect.any(String) });
      expect(res.mandate).toMatchObject({ jti: 'mnd_1', intent_id: 'crm' });
      expect(res.mandate).not.toHaveProperty('prompt_id');
      expect(repository.recorded[0]).toMatchObject({ promptId: null, actor: 'agent-1' });
    });

    it('gives every decision its own id', async () => {
      const a = await call();
      const b = await call();
      expect(a.decision.decision_id).not.toBe(b.decision.decision_id);
    });

    it('carries rule_id and the kind fields when a rule decided', async () => {
      const res = await call(request({ arguments: { limit: 500 } }));
      expect(res.decision).toEqual({ kind: 'allow_with_log_extra', decision_id: expect.any(String), rule_id: 'log-bulk', log_fields: { bulk: true } });
      expect(repository.recorded[0]).toMatchObject({ ruleId: 'log-bulk', stage: 'rule' });
    });

    it('fails with the store error (503) when the decision cannot be made durable', async () => {
      repository.failure = new DependencyUnavailableError('database');
      const err = await failure(call());
      expect(err).toBe(repository.failure);
      expect(toErrorResponse(err).status).toBe(503);
    });
  });

  describe('deny', () => {
    it('records a rule deny with its reason and rule_id', async () => {
      const res = await call(request({ arguments: { secret: 'x' } }));
      expect(res.decision).toEqual({
        kind: 'deny',
        decision_id: expect.any(String),
        rule_id: 'no-secrets',
        reason: 'secret_argument',
        message: 'no secrets',
      });
      expect(repository.recorded[0]).toMatchObject({ kind: 'deny', reason: 'secret_argument', ruleId: 'no-secrets' });
    });

    it('denies a confused deputy without a rule_id', async () => {
      const res = await call(request({}, { context: { actor: 'someone-else' } }));
      expect(res.decision).toMatchObject({ kind: 'deny', reason: 'confused_deputy' });
      expect(res.decision).not.toHaveProperty('rule_id');
      expect(repository.recorded[0]).toMatchObject({ stage: 'confused_deputy', ruleId: null });
    });
  });

  describe('approval', () => {
    const exportCall = (args: Record<string, unknown> = { format: 'csv', fields: ['name', 'email'] }, target = 'crm://contacts/all') =>
      call(request({ operation: 'crm.contacts.export', arguments: args, target_resource: target }));

    it('opens an approval request (source mcp_proxy, with a fingerprint) and answers approval with its id', async () => {
      const res = await exportCall();
      expect(res.decision).toEqual({ kind: 'approval', decision_id: expect.any(String), rule_id: 'export-needs-approval', approval_request_id: 'apr_1' });
      expect(approvals.consumed).toHaveLength(1);
      expect(approvals.created).toHaveLength(1);
      const { caller, request: created } = approvals.created[0]!;
      expect(caller).toMatchObject({ orgId: ORG, keyId: 'key_1' });
      expect(created).toMatchObject({ source: 'mcp_proxy', intent_card_id: 'crm', operation: 'crm.contacts.export', user_id: 'agent-1' });
      expect(created.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(created.fingerprint).toBe(approvals.consumed[0]);
      expect(created.summary).toContain('crm.contacts.export');
      expect(repository.recorded[0]).toMatchObject({ kind: 'approval', approvalRequestId: 'apr_1', ruleId: 'export-needs-approval' });
    });

    it('lets the same call through once after the request was approved: allow with approval_request_id', async () => {
      await exportCall();
      approvals.approve(approvals.created[0]!.request, 'apr_1');

      const res = await exportCall({ fields: ['name', 'email'], format: 'csv' });
      expect(res.decision).toEqual({ kind: 'allow', decision_id: expect.any(String), rule_id: 'export-needs-approval', approval_request_id: 'apr_1' });
      expect(approvals.created).toHaveLength(1);
      expect(repository.recorded[1]).toMatchObject({ kind: 'allow', approvalRequestId: 'apr_1', ruleId: 'export-needs-approval' });

      // Spent: the next identical call asks again.
      const again = await exportCall();
      expect(kindOf(again)).toBe('approval');
      expect(again.decision['approval_request_id']).toBe('apr_2');
    });

    it('recognises the same action whatever the key order of its arguments, and only that action', async () => {
      await exportCall({ format: 'csv', opts: { a: 1, b: [1, { y: 2, x: 1 }] } });
      await exportCall({ opts: { b: [1, { x: 1, y: 2 }], a: 1 }, format: 'csv' });
      await exportCall({ format: 'json', opts: { a: 1, b: [1, { y: 2, x: 1 }] } });
      await exportCall({ format: 'csv', opts: { a: 1, b: [{ y: 2, x: 1 }, 1] } });
      await exportCall({ format: 'csv', opts: { a: 1, b: [1, { y: 2, x: 1 }] } }, 'crm://contacts/other');
      verifier.verdict = { ok: true, claims: claims({ jti: 'mnd_2' }) };
      await exportCall({ format: 'csv', opts: { a: 1, b: [1, { y: 2, x: 1 }] } });

      const [same, reordered, otherArgs, otherOrder, otherTarget, otherMandate] = approvals.created.map((c) => c.request.fingerprint);
      expect(reordered).toBe(same);
      expect(new Set([same, otherArgs, otherOrder, otherTarget, otherMandate]).size).toBe(5);
    });

    it('keys the approval on the v1 rendering of the action: approvals opened before still match', async () => {
      await exportCall({ format: 'csv', fields: ['name', 'email'] });
      const v1 = '{"args":{"fields":["name","email"],"format":"csv"},"cred":"mnd_1","op":"crm.contacts.export","target":"crm://contacts/all","v":1}';
      expect(approvals.created[0]?.request.fingerprint).toBe(createHash('sha256').update(v1).digest('hex'));
    });

    it('opens no request when the card is in shadow: allow_with_shadow', async () => {
      registry.snapshot = { version: 1, cards: [cardEvent('crm', { shadow: true })] };
      const res = await exportCall();
      expect(res.decision).toMatchObject({
        kind: 'allow_with_shadow',
        rule_id: 'export-needs-approval',
        shadow_decision: { kind: 'approval', approval_request_id: null },
      });
      expect(approvals.consumed).toEqual([]);
      expect(approvals.created).toEqual([]);
    });
  });

  describe('defer', () => {
    it('stores the decision at once with a pending review and answers defer with review_id', async () => {
      const res = await call(request({ operation: 'crm.contacts.update', arguments: { id: 42, name: 'Ada' } }));
      expect(res.decision).toEqual({
        kind: 'defer',
        decision_id: expect.any(String),
        rule_id: 'updates-reviewed',
        review_id: expect.stringMatching(/^rev_/),
      });
      expect(repository.recorded).toHaveLength(1);
      expect(repository.recorded[0]).toMatchObject({
        kind: 'defer',
        ruleId: 'updates-reviewed',
        reviewId: res.decision['review_id'],
        reviewStatus: 'pending',
        reviewedAt: null,
        decision: res.decision,
      });
    });
  });
});
