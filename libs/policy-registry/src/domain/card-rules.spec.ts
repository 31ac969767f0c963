import { checkCard, checkDecision, checkRules, checkScope, globProblem } from './card-rules';
import type { CardContent, CardRule } from './intent-card';

const rule = (id: string, when: string, decision: CardRule['decision']): CardRule => ({ id, when, decision });

const card = (over: Partial<CardContent> = {}): CardContent => ({
  id: 'crm-assistant',
  name: 'CRM assistant',
  description: '',
  allowedScope: { operations: ['crm.read', 'crm.search*'], resources: ['crm://customers/*'], forbidden_operations: ['crm.delete*'] },
  audiences: ['crm-api'],
  maxTtlSeconds: 3600,
  shadow: false,
  rules: [],
  ...over,
});

describe('card rules', () => {
  it('accept a complete card', () => {
    expect(
      checkCard(
        card({
          rules: [
            rule('bulk-export', 'action.operation == "crm.export" && size(action.arguments) > 2', { kind: 'approval' }),
            rule('vip', 'context.user in ["a","b"]', { kind: 'allow_with_redact', redact_fields: ['ssn'] }),
            rule('crm-only', 'mandate.scope.operations.exists(o, o.startsWith("crm."))', { kind: 'allow' }),
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('name the rule whose condition does not parse or type-check', () => {
    const details = checkRules([
      rule('a', 'true', { kind: 'allow' }),
      rule('b', 'action.operation ==', { kind: 'deny', reason: 'x' }),
      rule('c', 'foo(', { kind: 'deny' }),
      rule('d', 'nope(1)', { kind: 'deny' }),
    ]);
    expect(details.map((d) => d.path)).toEqual(['rules[1].when', 'rules[2].when', 'rules[3].when']);
    expect(details[0]!.message).toMatch(/^rules\[1\]\.when is not a valid condition: <input>:1:\d+: found/);
    expect(details[2]!.message).toMatch(/undeclared reference to 'nope'/);
  });

  it('refuse duplicate rule ids', () => {
    const details = checkRules([rule('same', 'true', { kind: 'allow' }), rule('same', 'false', { kind: 'deny' })]);
    expect(details).toEqual([{ path: 'rules[1].id', message: 'rules[1].id "same" is already used by rules[0]' }]);
  });

  it.each([
    ['substitute', 'replacement_action', { replacement_action: { operation: 'crm.read' } }],
    ['deny_with_reroute', 'reroute_card_id', { reroute_card_id: 'crm-readonly' }],
    ['step_up', 'required_acr', { required_acr: 'urn:mfa' }],
    ['allow_with_redact', 'redact_fields', { redact_fields: ['email'] }],
    ['allow_with_downgrade', 'downgraded_action', { downgraded_action: { operation: 'crm.read' } }],
    ['negotiate', 'suggested_action', { suggested_action: { operation: 'crm.read' } }],
    ['allow_with_log_extra', 'log_fields', { log_fields: { reason: 'audit' } }],
  ])('require %s to carry %s', (kind, field, fields) => {
    expect(checkDecision({ kind }, 'rules[0].decision')).toEqual([
      { path: `rules[0].decision.${field}`, message: expect.stringContaining(`rules[0].decision.${field} is required for kind ${kind}`) },
    ]);
    expect(checkDecision({ kind, ...fields }, 'rules[0].decision')).toEqual([]);
  });

  it('refuse an empty redaction list and a kind that does not exist', () => {
    expect(checkDecision({ kind: 'allow_with_redact', redact_fields: [] }, 'd')[0]!.path).toBe('d.redact_fields');
    expect(checkDecision({ kind: 'maybe' }, 'd')[0]!.path).toBe('d.kind');
  });

  it('need nothing extra for kinds whose fields come at decision time', () => {
    for (const kind of ['allow', 'allow_with_shadow', 'defer', 'approval', 'deny']) expect(checkDecision({ kind }, 'd')).toEqual([]);
  });

  it('allow only * and ? as glob wildcards', () => {
    expect(globProblem('crm.*')).toBeNull();
    expect(globProblem('crm://customers/**')).toBeNull();
    expect(globProblem('crm://customers/??/*')).toMatch(/only \* and \*\* .*found \?/);
    expect(globProblem('')).toMatch(/non-empty/);
    expect(globProblem('crm.[ab]')).toMatch(/only \* and \*\*/);
    expect(globProblem('crm.{a,b}')).toMatch(/only \* and \*\*/);
    expect(globProblem('crm\\*')).toMatch(/only \* and \*\*/);
    expect(globProblem('crm read')).toMatch(/whitespace/);
    expect(checkScope({ operations: ['ok', ''], resources: ['x[1]'], forbidden_operations: [] }).map((d) => d.path)).toEqual([
      'allowed_scope.operations[1]',
      'allowed_scope.resources[0]',
    ]);
  });

  it('check the card fields the contract cannot', () => {
    expect(checkCard(card({ audiences: [], maxTtlSeconds: 7200 })).map((d) => d.path)).toEqual(['audiences', 'max_ttl_seconds']);
  });
});
