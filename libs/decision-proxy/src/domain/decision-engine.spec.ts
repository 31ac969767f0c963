import { DECISION_KINDS, type DecisionKind } from '@igw/kernel';
import { compileCard, CompiledCardCache, type DecisionCard, type DecisionCardRule } from './compiled-card';
import { BLOCKING_KINDS, type ProxyAction } from './decision';
import { confusedDeputy, decide, mandateInShadow, type DecisionInput, type MandateClaims } from './decision-engine';

const SCOPE = {
  operations: ['crm.contacts.read', 'crm.contacts.update', 'crm.accounts.*', 'crm.contacts.export'],
  resources: ['crm://contacts/*', 'crm://accounts/7', 'crm://accounts/9'],
  forbidden_operations: ['crm.*.delete'],
};

function mandate(over: Partial<MandateClaims> = {}): MandateClaims {
  return {
    sub: 'agent-1',
    org: 'org_1',
    intent_id: 'crm-card',
    prompt_id: 'prm_1',
    aud: 'crm-api',
    scope: structuredClone(SCOPE),
    ctx: {},
    jti: 'mnd_1',
    exp: 2_000_000_000,
    ...over,
  };
}

function card(rules: DecisionCardRule[] = [], over: Partial<DecisionCard> = {}): DecisionCard {
  return { id: 'crm-card', version: 1, allowed_scope: structuredClone(SCOPE), shadow: false, rules, ...over };
}

const action = (over: Partial<ProxyAction> = {}): ProxyAction => ({
  surface: 'sdk',
  operation: 'crm.contacts.read',
  arguments: { id: 42 },
  target_resource: 'crm://contacts/42',
  ...over,
});

function run(
  opts: {
    rules?: DecisionCardRule[];
    card?: Partial<DecisionCard>;
    mandate?: Partial<MandateClaims>;
    action?: Partial<ProxyAction>;
    context?: Record<string, unknown>;
    mandateShadow?: boolean;
    acrLevels?: string[];
  } = {},
) {
  const input: DecisionInput = {
    mandate: mandate(opts.mandate),
    card: compileCard(card(opts.rules ?? [], opts.card)),
    request: { action: action(opts.action), context: opts.context ?? { actor: 'agent-1', prompt_id: 'prm_1' }, audience: 'crm-api' },
  };
  if (opts.mandateShadow !== undefined) input.mandateShadow = opts.mandateShadow;
  return decide(input, opts.acrLevels ? { acrLevels: opts.acrLevels } : {});
}

const rule = (id: string, decision: Record<string, unknown>, when = 'true'): DecisionCardRule => ({
  id,
  when,
  decision: decision as DecisionCardRule['decision'],
});

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

  describe('step 7: rules', () => {
    it('first match wins', () => {
      const rules = [
        rule('no', { kind: 'deny', reason: 'a' }, 'action.operation == "crm.contacts.update"'),
        rule('first', { kind: 'allow_with_log_extra', log_fields: { n: 1 } }, 'action.arguments.id == 42'),
        rule('second', { kind: 'deny', reason: 'b' }, 'true'),
      ];
      expect(run({ rules })).toMatchObject({ rule_id: 'first', decision: { kind: 'allow_with_log_extra' } });
      expect(run({ rules, action: { arguments: { id: 1 } } })).toMatchObject({ rule_id: 'second', decision: { kind: 'deny', reason: 'b' } });
    });

    it('sees action, context and mandate', () => {
      const rules = [
        rule(
          'r',
          { kind: 'deny', reason: 'x' },
          'action.surface == "sdk" && context.ticket == "T-1" && mandate.sub == "agent-1" && mandate.scope.operations.size() == 4',
        ),
      ];
      expect(run({ rules, context: { ticket: 'T-1' } }).rule_id).toBe('r');
      expect(run({ rules, context: { ticket: 'T-2' } }).rule_id).toBeNull();
    });

    describe('CEL errors fail closed', () => {
      it('an evaluation error denies rule_error with the rule id', () => {
        const rules = [rule('limit', { kind: 'allow' }, 'action.arguments.limit > 100'), rule('after', { kind: 'allow' })];
        const r = run({ rules });
        expect(r.decision).toMatchObject({ kind: 'deny', reason: 'rule_error' });
        expect((r.decision as { message: string }).message).toMatch(/rule limit could not be applied: .*field not found: limit/);
        expect(r).toMatchObject({ rule_id: 'limit', stage: 'rule' });
      });

      it('a guarded condition does not error', () => {
        expect(run({ rules: [rule('limit', { kind: 'deny' }, 'has(action.arguments.limit) && action.arguments.limit > 100')] }).decision.kind).toBe('allow');
      });

      it('a non-bool result is an error', () => {
        expect(run({ rules: [rule('r', { kind: 'allow' }, 'context.flag')], context: { flag: 'yes' } }).decision).toMatchObject({
          kind: 'deny',
          reason: 'rule_error',
        });
      });

      it('a condition that does not compile denies when reached, not before', () => {
        const rules = [rule('ok', { kind: 'allow_with_log_extra', log_fields: {} }, 'context.x == 1'), rule('broken', { kind: 'allow' }, 'user == "a"')];
        expect(run({ rules, context: { x: 1 } }).rule_id).toBe('ok');
        expect(run({ rules, context: { x: 2 } })).toMatchObject({ rule_id: 'broken', decision: { kind: 'deny', reason: 'rule_error' } });
      });

      it('an unusable decision denies when its rule matches', () => {
        const rules = [rule('bad', { kind: 'substitute' }, 'context.x == 1'), rule('bogus', { kind: 'maybe' }, 'context.x == 2')];
        expect(run({ rules, context: { x: 1 } })).toMatchObject({ rule_id: 'bad', decision: { kind: 'deny', reason: 'rule_error' } });
        expect(run({ rules, context: { x: 2 } })).toMatchObject({ rule_id: 'bogus', decision: { kind: 'deny', reason: 'rule_error' } });
        expect(run({ rules, context: { x: 3 } }).decision.kind).toBe('allow');
      });
    });

    describe('step_up', () => {
      const rules = [
        rule('mfa', { kind: 'step_up', required_acr: 'mfa' }, 'action.operation == "crm.contacts.export"'),
        rule('later', { kind: 'deny', reason: 'later' }),
      ];
      const exportAction = { operation: 'crm.contacts.export' };

      it.each([['mfa'], ['hwk']])('is satisfied by acr %s: allow with the rule id, later rules not consulted', (acr) => {
        expect(run({ rules, action: exportAction, mandate: { acr } })).toEqual({ decision: { kind: 'allow' }, rule_id: 'mfa', stage: 'rule', assign: null });
      });

      it.each([['pwd'], ['otp'], ['unknown'], [undefined]])('blocks with 428 for acr %s', (acr) => {
        const r = run({ rules, action: exportAction, mandate: acr === undefined ? {} : { acr } });
        expect(r).toEqual({ decision: { kind: 'step_up', required_acr: 'mfa' }, rule_id: 'mfa', stage: 'rule', assign: null });
      });

      it('uses configured acr levels', () => {
        const levels = ['urn:low', 'urn:mfa', 'urn:high'];
        const r2 = [rule('s', { kind: 'step_up', required_acr: 'urn:mfa' })];
        expect(run({ rules: r2, mandate: { acr: 'urn:high' }, acrLevels: levels }).decision.kind).toBe('allow');
        expect(run({ rules: r2, mandate: { acr: 'urn:low' }, acrLevels: levels }).decision.kind).toBe('step_up');
        expect(run({ rules: r2, mandate: { acr: 'urn:high' } }).decision.kind).toBe('step_up');
      });
    });
  });

  describe('step 8: shadow', () => {
    const blocking: [DecisionKind, Record<string, unknown>][] = [
      ['negotiate', { kind: 'negotiate', suggested_action: { operation: 'x' } }],
      ['substitute', { kind: 'substitute', replacement_action: { operation: 'x' } }],
      ['approval', { kind: 'approval' }],
      ['step_up', { kind: 'step_up', required_acr: 'hwk' }],
      ['deny', { kind: 'deny', reason: 'r' }],
      ['deny_with_reroute', { kind: 'deny_with_reroute', reroute_card_id: 'other' }],
    ];

    it('the blocking kinds are exactly these', () => {
      expect([...BLOCKING_KINDS].sort()).toEqual(blocking.map((b) => b[0]).sort());
    });

    describe.each([
      ['card', { card: { shadow: true } }],
      ['mandate ctx.shadow', { mandate: { ctx: { shadow: true } } }],
      ['mandateShadow flag', { mandateShadow: true }],
    ])('in shadow via %s', (_via, shadowOpts) => {
      it.each(blocking)('%s becomes allow_with_shadow', (_kind, d) => {
        const plain = run({ rules: [rule('r1', d)] });
        const r = run({ ...shadowOpts, rules: [rule('r1', d)] });
        expect(r).toEqual({ decision: { kind: 'allow_with_shadow', shadow_decision: plain.decision }, rule_id: 'r1', stage: 'rule', assign: null });
      });

      it('shadows engine denials too (confused deputy, scope) and a negotiated scope', () => {
        expect(run({ ...shadowOpts, context: { actor: 'x' } })).toMatchObject({
          decision: { kind: 'allow_with_shadow', shadow_decision: { kind: 'deny', reason: 'confused_deputy' } },
          stage: 'confused_deputy',
        });
        expect(run({ ...shadowOpts, action: { operation: 'crm.contacts.delete' } }).decision).toMatchObject({
          kind: 'allow_with_shadow',
          shadow_decision: { reason: 'forbidden_operation' },
        });
        expect(run({ ...shadowOpts, action: { operation: 'crm.contacts.merge' } }).decision).toMatchObject({
          kind: 'allow_with_shadow',
          shadow_decision: { kind: 'negotiate' },
        });
        expect(run({ ...shadowOpts, rules: [rule('r', { kind: 'allow' }, 'action.arguments.nope')] }).decision).toMatchObject({
          kind: 'allow_with_shadow',
          shadow_decision: { kind: 'deny', reason: 'rule_error' },
        });
      });

      it.each([
        [{ kind: 'allow' }],
        [{ kind: 'allow_with_log_extra', log_fields: { a: 1 } }],
        [{ kind: 'allow_with_redact', redact_fields: ['ssn'] }],
        [{ kind: 'allow_with_downgrade', downgraded_action: { operation: 'y' } }],
        [{ kind: 'defer' }],
      ])('leaves non-blocking %o as it is', (d) => {
        expect(run({ ...shadowOpts, rules: [rule('r1', d)] })).toEqual(run({ rules: [rule('r1', d)] }));
      });

      it('leaves the default allow as it is', () => {
        expect(run(shadowOpts).decision).toEqual({ kind: 'allow' });
      });
    });

    it('reads only ctx.shadow === true as mandate shadow', () => {
      expect(mandateInShadow({ ctx: { shadow: true } })).toBe(true);
      expect(mandateInShadow({ ctx: { shadow: 'true' } })).toBe(false);
      expect(mandateInShadow({})).toBe(false);
      expect(run({ mandate: { ctx: { shadow: 'true' } }, rules: [rule('r', { kind: 'deny' })] }).decision.kind).toBe('deny');
    });

    it('an explicit mandateShadow: false overrides ctx.shadow', () => {
      expect(run({ mandate: { ctx: { shadow: true } }, mandateShadow: false, rules: [rule('r', { kind: 'deny' })] }).decision.kind).toBe('deny');
    });
  });

  describe('determinism and compilation', () => {
    it('gives the same result for the same input, whatever ran before', () => {
      const rules = [rule('a', { kind: 'deny', reason: 'x' }, 'context.n > 1'), rule('b', { kind: 'approval' }, 'context.n == 1')];
      const inputs = [{ n: 0 }, { n: 1 }, { n: 2 }, { actor: 'z' }];
      const first = inputs.map((context) => run({ rules, context }));
      const again = [...inputs]
        .reverse()
        .map((context) => run({ rules, context }))
        .reverse();
      expect(again).toEqual(first);
      expect(first.map((r) => r.decision.kind)).toEqual(['allow', 'approval', 'deny', 'deny']);
    });

    it('does not modify its input', () => {
      const m = mandate();
      const c = compileCard(card([rule('r', { kind: 'deny' })]));
      const req = { action: action(), context: { actor: 'agent-1' }, audience: 'crm-api' };
      const snapshot = structuredClone({ m, req });
      decide({ mandate: m, card: c, request: req });
      expect({ m, req }).toEqual(snapshot);
    });

    it('caches compiled cards per org, id and version', () => {
      const cache = new CompiledCardCache(2);
      const v1 = card();
      expect(cache.get('org_1', v1)).toBe(cache.get('org_1', v1));
      expect(cache.get('org_2', v1)).not.toBe(cache.get('org_1', v1));
      const v2 = card([], { version: 2 });
      cache.get('org_1', v2);
      expect(cache.size).toBe(2);
    });

    it('never serves a compiled card for other content under the same id and version (a card removed and installed again)', () => {
      const cache = new CompiledCardCache(10);
      const wide = card([], { allowed_scope: { operations: ['crm.**'], resources: ['**'], forbidden_operations: [] } });
      const narrow = card([rule('r', { kind: 'deny' })], { allowed_scope: { operations: ['crm.contacts.read'], resources: ['**'], forbidden_operations: [] } });
      const first = cache.get('org_1', wide);
      const again = cache.get('org_1', narrow);
      expect(again).not.toBe(first);
      expect(again.rules.map((r) => r.id)).toEqual(['r']);
      expect(cache.get('org_1', structuredClone(narrow))).toBe(again);
    });

    it('compiles conditions once: a compiled rule keeps its planned condition', () => {
      const compiled = compileCard(card([rule('r', { kind: 'allow' }, 'context.n == 1'), rule('bad', { kind: 'allow' }, 'nope')]));
      expect(typeof compiled.rules[0]!.condition).toBe('function');
      expect(compiled.rules[1]!.condition).toBeNull();
      expect(compiled.rules[1]!.conditionProblem).toMatch(/undeclared reference to 'nope'/);
    });
  });
});
