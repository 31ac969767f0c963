import { DECISION_KINDS } from '@igw/kernel';
import { compileCard } from './compiled-card';
import { confusedDeputy, decide, type DecisionInput } from './decision-engine';
import { SCOPE, mandate, card, action, run, rule } from './decision-engine.fixture';

// Steps 9, 5 and 6 and the twelve kinds; rules, shadow and compilation: decision-engine.rules.spec.ts.
describe('decision engine', () => {
  describe('step 9: default', () => {
    it('allows an in-scope action when no rule matches', () => {
      expect(run({ rules: [rule('never', { kind: 'deny' }, 'false')] })).toEqual({
        decision: { kind: 'allow' },
        rule_id: null,
        stage: 'default',
        assign: null,
      });
    });

    it('allows with no context at all', () => {
      const r = decide({ mandate: mandate(), card: compileCard(card()), request: { action: action(), audience: 'crm-api' } });
      expect(r.decision).toEqual({ kind: 'allow' });
    });
  });

  describe('the twelve kinds and their fields', () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>, string | null][] = [
      ['allow', { kind: 'allow' }, { kind: 'allow' }, null],
      [
        'allow_with_log_extra',
        { kind: 'allow_with_log_extra', log_fields: { ticket: 'T-1' } },
        { kind: 'allow_with_log_extra', log_fields: { ticket: 'T-1' } },
        null,
      ],
      [
        'allow_with_redact',
        { kind: 'allow_with_redact', redact_fields: ['ssn', 'email'] },
        { kind: 'allow_with_redact', redact_fields: ['ssn', 'email'] },
        null,
      ],
      [
        'allow_with_downgrade',
        { kind: 'allow_with_downgrade', downgraded_action: { operation: 'crm.contacts.read', arguments: { limit: 10 } } },
        { kind: 'allow_with_downgrade', downgraded_action: { operation: 'crm.contacts.read', arguments: { limit: 10 } } },
        null,
      ],
      ['allow_with_shadow', { kind: 'allow_with_shadow' }, { kind: 'allow_with_shadow', shadow_decision: { kind: 'allow' } }, null],
      ['defer', { kind: 'defer' }, { kind: 'defer', review_id: null }, 'review_id'],
      [
        'negotiate',
        { kind: 'negotiate', suggested_action: { operation: 'crm.contacts.read' }, message: 'read instead' },
        { kind: 'negotiate', suggested_action: { operation: 'crm.contacts.read' }, message: 'read instead' },
        null,
      ],
      [
        'substitute',
        { kind: 'substitute', replacement_action: { operation: 'crm.contacts.read' } },
        { kind: 'substitute', replacement_action: { operation: 'crm.contacts.read' } },
        null,
      ],
      ['approval', { kind: 'approval' }, { kind: 'approval', approval_request_id: null }, 'approval_request_id'],
      ['step_up', { kind: 'step_up', required_acr: 'mfa' }, { kind: 'step_up', required_acr: 'mfa' }, null],
      ['deny', { kind: 'deny', reason: 'after_hours', message: 'not now' }, { kind: 'deny', reason: 'after_hours', message: 'not now' }, null],
      [
        'deny_with_reroute',
        { kind: 'deny_with_reroute', reroute_card_id: 'crm-export', message: 'use the export card' },
        { kind: 'deny_with_reroute', reroute_card_id: 'crm-export', message: 'use the export card' },
        null,
      ],
    ];

    it('covers every kind', () => {
      expect(cases.map((c) => c[0]).sort()).toEqual([...DECISION_KINDS].sort());
    });

    it.each(cases)('%s', (_kind, ruleDecision, expected, assign) => {
      const r = run({ rules: [rule('r1', ruleDecision)] });
      expect(r.decision).toEqual(expected);
      expect(r.rule_id).toBe('r1');
      expect(r.stage).toBe('rule');
      expect(r.assign).toBe(assign);
    });

    it('copies only the fields of the kind', () => {
      const r = run({ rules: [rule('r1', { kind: 'allow', secret: 'x', log_fields: { a: 1 } })] });
      expect(r.decision).toEqual({ kind: 'allow' });
    });

    it('fills defaults for deny and deny_with_reroute messages and the deny reason', () => {
      expect(run({ rules: [rule('r1', { kind: 'deny' })] }).decision).toEqual({ kind: 'deny', reason: 'rule_denied', message: 'denied by rule r1' });
      expect(run({ rules: [rule('r1', { kind: 'deny_with_reroute', reroute_card_id: 'other' })] }).decision).toEqual({
        kind: 'deny_with_reroute',
        reroute_card_id: 'other',
        message: 'use intent card other for this action',
      });
    });

    it('keeps a rule-given shadow_decision of allow_with_shadow', () => {
      const r = run({ rules: [rule('r1', { kind: 'allow_with_shadow', shadow_decision: { kind: 'deny', reason: 'trial' } })] });
      expect(r.decision).toEqual({ kind: 'allow_with_shadow', shadow_decision: { kind: 'deny', reason: 'trial', message: 'denied by rule r1' } });
    });

    it('returns copies: mutating a result does not change the compiled card', () => {
      const compiled = compileCard(card([rule('r1', { kind: 'allow_with_log_extra', log_fields: { a: 1 } })]));
      const input = { mandate: mandate(), card: compiled, request: { action: action(), context: {}, audience: 'crm-api' } };
      const first = decide(input);
      (first.decision as { log_fields: Record<string, unknown> }).log_fields['a'] = 2;
      expect(decide(input).decision).toEqual({ kind: 'allow_with_log_extra', log_fields: { a: 1 } });
    });
  });

  describe('step 5: confused deputy', () => {
    it.each([
      ['actor differs', { actor: 'agent-2' }],
      ['on_behalf_of[0] differs', { on_behalf_of: ['agent-2', 'agent-1'] }],
      ['on_behalf_of string differs', { on_behalf_of: 'agent-2' }],
      ['actor is not a string', { actor: 7 }],
      ['prompt_id differs', { actor: 'agent-1', prompt_id: 'prm_2' }],
      ['prompt_id differs without actor', { prompt_id: 'prm_2' }],
    ])('denies when %s', (_name, context) => {
      const r = run({ context });
      expect(r.decision).toMatchObject({ kind: 'deny', reason: 'confused_deputy' });
      expect(r).toMatchObject({ rule_id: null, stage: 'confused_deputy', assign: null });
    });

    it.each([
      ['nothing stated', {}],
      ['matching actor and prompt', { actor: 'agent-1', prompt_id: 'prm_1' }],
      ['matching on_behalf_of[0]', { on_behalf_of: ['agent-1', 'someone'] }],
      ['actor wins over on_behalf_of', { actor: 'agent-1', on_behalf_of: ['user-9'] }],
      ['null fields state nothing', { actor: null, prompt_id: null }],
      ['empty chain', { on_behalf_of: [] }],
    ])('passes when %s', (_name, context) => {
      expect(confusedDeputy(mandate(), context)).toBeNull();
      expect(run({ context }).decision.kind).toBe('allow');
    });

    it('skips the prompt check for a mandate bound to no prompt (no claim, or null), but still checks the actor', () => {
      const { prompt_id: _prompt, ...unbound } = mandate();
      for (const m of [unbound, mandate({ prompt_id: null })]) {
        expect(confusedDeputy(m, { actor: 'agent-1', prompt_id: 'prm_2' })).toBeNull();
        expect(confusedDeputy(m, { prompt_id: 'anything' })).toBeNull();
        expect(confusedDeputy(m, { actor: 'agent-2', prompt_id: 'prm_2' })).toBe("context.actor is not the mandate's subject");
      }
      const input: DecisionInput = {
        mandate: unbound,
        card: compileCard(card()),
        request: { action: action(), context: { actor: 'agent-1', prompt_id: 'prm_9' }, audience: 'crm-api' },
      };
      expect(decide(input).decision.kind).toBe('allow');
    });

    it('comes before scope and rules', () => {
      const r = run({ context: { actor: 'agent-2' }, action: { operation: 'crm.contacts.delete' }, rules: [rule('r1', { kind: 'approval' })] });
      expect(r.decision).toMatchObject({ kind: 'deny', reason: 'confused_deputy' });
    });
  });

  describe('step 6: scope', () => {
    it('denies a forbidden operation (glob) even when an allow pattern covers it', () => {
      const r = run({ action: { operation: 'crm.accounts.delete', target_resource: 'crm://accounts/7' } });
      expect(r.decision).toMatchObject({ kind: 'deny', reason: 'forbidden_operation' });
      expect(r).toMatchObject({ stage: 'scope', rule_id: null });
    });

    it('applies forbidden_operations of the card as well as the mandate', () => {
      const r = run({
        card: { allowed_scope: { ...structuredClone(SCOPE), forbidden_operations: ['crm.contacts.update'] } },
        action: { operation: 'crm.contacts.update' },
      });
      expect(r.decision).toMatchObject({ kind: 'deny', reason: 'forbidden_operation' });
    });

    it('matches operations and resources as scope globs', () => {
      expect(run({ action: { operation: 'crm.accounts.list', target_resource: 'crm://accounts/9' } }).decision.kind).toBe('allow');
      // `*` stays within a segment.
      expect(run({ action: { target_resource: 'crm://contacts/42/notes' } }).decision.kind).not.toBe('allow');
      expect(run({ action: { operation: 'crm.accounts.x.y', target_resource: 'crm://accounts/9' } }).decision.kind).not.toBe('allow');
    });

    it('checks only the operation when the action names no target', () => {
      const { target_resource: _t, ...noTarget } = action();
      const r = decide({ mandate: mandate(), card: compileCard(card()), request: { action: noTarget, context: {}, audience: 'crm-api' } });
      expect(r.decision.kind).toBe('allow');
    });

    it('negotiates the closest in-scope literal operation, keeping target and arguments', () => {
      const r = run({ action: { operation: 'crm.contacts.merge' } });
      expect(r.decision).toEqual({
        kind: 'negotiate',
        suggested_action: { surface: 'sdk', operation: 'crm.contacts.read', arguments: { id: 42 }, target_resource: 'crm://contacts/42' },
        message: "operation crm.contacts.merge outside the mandate's scope; operation crm.contacts.read would be in scope",
      });
      expect(r).toMatchObject({ stage: 'scope', rule_id: null, assign: null });
    });

    it('prefers more shared segments, then the mandate order', () => {
      const m = { scope: { ...structuredClone(SCOPE), operations: ['crm.read', 'crm.contacts.export', 'crm.contacts.read'] } };
      const c = { allowed_scope: { ...structuredClone(SCOPE), operations: ['crm.**'] } };
      expect(run({ mandate: m, card: c, action: { operation: 'crm.contacts.merge' } }).decision).toMatchObject({
        suggested_action: { operation: 'crm.contacts.export' },
      });
      expect(run({ mandate: m, card: c, action: { operation: 'crm.other' } }).decision).toMatchObject({ suggested_action: { operation: 'crm.read' } });
      // crm.read is in the mandate but not in the card: never suggested.
      expect(run({ mandate: m, action: { operation: 'crm.other' } }).decision).toMatchObject({ suggested_action: { operation: 'crm.contacts.export' } });
    });

    it('negotiates the closest in-scope literal resource', () => {
      const r = run({ action: { operation: 'crm.accounts.get', target_resource: 'crm://accounts/8' } });
      expect(r.decision).toMatchObject({ kind: 'negotiate', suggested_action: { operation: 'crm.accounts.get', target_resource: 'crm://accounts/7' } });
    });

    it('replaces both when both are outside', () => {
      const r = run({ action: { operation: 'crm.contacts.merge', target_resource: 'crm://accounts/8' } });
      expect(r.decision).toMatchObject({ kind: 'negotiate', suggested_action: { operation: 'crm.contacts.read', target_resource: 'crm://accounts/7' } });
    });

    it('never suggests a forbidden operation or one outside the card', () => {
      const m = {
        scope: {
          operations: ['crm.contacts.delete', 'crm.contacts.purge', 'crm.contacts.read'],
          resources: ['crm://**'],
          forbidden_operations: ['crm.*.delete'],
        },
      };
      const c = { allowed_scope: { operations: ['crm.contacts.read', 'crm.contacts.list'], resources: ['crm://**'], forbidden_operations: [] } };
      expect(run({ mandate: m, card: c, action: { operation: 'crm.contacts.list' } }).decision).toMatchObject({
        suggested_action: { operation: 'crm.contacts.read' },
      });
    });

    it('denies scope_outside_intent when no variant exists', () => {
      for (const a of [
        { operation: 'billing.invoices.read' },
        { target_resource: 's3://bucket/key' },
        { operation: 'crm.contacts.merge', target_resource: 's3://x' },
      ]) {
        const r = run({ action: a });
        expect(r.decision).toMatchObject({ kind: 'deny', reason: 'scope_outside_intent' });
      }
    });

    it('does not turn wildcard patterns into values', () => {
      const m = { scope: { operations: ['crm.**'], resources: ['crm://contacts/*'], forbidden_operations: [] } };
      expect(run({ mandate: m, action: { target_resource: 'crm://accounts/1' } }).decision).toMatchObject({ kind: 'deny', reason: 'scope_outside_intent' });
    });

    it('narrows to the card scope when the card changed after dispense', () => {
      const r = run({ card: { allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/1'], forbidden_operations: [] } } });
      expect(r.decision).toMatchObject({ kind: 'deny', reason: 'scope_outside_intent' });
    });

    it('denies scope_invalid for a pattern that is not a scope glob', () => {
      expect(run({ mandate: { scope: { operations: [''], resources: ['**'], forbidden_operations: [] } } }).decision).toMatchObject({
        kind: 'deny',
        reason: 'scope_invalid',
      });
      expect(run({ card: { allowed_scope: { operations: ['**'], resources: ['**'], forbidden_operations: ['x'.repeat(600)] } } }).decision).toMatchObject({
        kind: 'deny',
        reason: 'scope_invalid',
      });
    });

    it('comes before rules', () => {
      const r = run({ action: { operation: 'crm.contacts.delete' }, rules: [rule('r1', { kind: 'allow' })] });
      expect(r.decision).toMatchObject({ kind: 'deny', reason: 'forbidden_operation' });
      expect(r.rule_id).toBeNull();
    });
  });
});
