import { type DecisionKind } from '@igw/kernel';
import { compileCard, CompiledCardCache } from './compiled-card';
import { BLOCKING_KINDS } from './decision';
import { decide, mandateInShadow } from './decision-engine';
import { mandate, card, action, run, rule } from './decision-engine.fixture';

// Steps 7 (rules) and 8 (shadow), determinism and compilation; the other steps: decision-engine.spec.ts.
describe('decision engine', () => {
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
