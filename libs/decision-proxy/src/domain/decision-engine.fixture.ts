// The decision engine specs' world: one CRM card and mandate, an action on it, `run` to decide.
import { compileCard, type DecisionCard, type DecisionCardRule } from './compiled-card';
import { type ProxyAction } from './decision';
import { decide, type DecisionInput, type MandateClaims } from './decision-engine';

export const SCOPE = {
  operations: ['crm.contacts.read', 'crm.contacts.update', 'crm.accounts.*', 'crm.contacts.export'],
  resources: ['crm://contacts/*', 'crm://accounts/7', 'crm://accounts/9'],
  forbidden_operations: ['crm.*.delete'],
};

export function mandate(over: Partial<MandateClaims> = {}): MandateClaims {
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

export function card(rules: DecisionCardRule[] = [], over: Partial<DecisionCard> = {}): DecisionCard {
  return { id: 'crm-card', version: 1, allowed_scope: structuredClone(SCOPE), shadow: false, rules, ...over };
}

export const action = (over: Partial<ProxyAction> = {}): ProxyAction => ({
  surface: 'sdk',
  operation: 'crm.contacts.read',
  arguments: { id: 42 },
  target_resource: 'crm://contacts/42',
  ...over,
});

export function run(
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

export const rule = (id: string, decision: Record<string, unknown>, when = 'true'): DecisionCardRule => ({
  id,
  when,
  decision: decision as DecisionCardRule['decision'],
});
