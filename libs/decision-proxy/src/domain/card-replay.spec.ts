import { DEFAULT_ACR_LEVELS } from './acr';
import { compileCard, type DecisionCard, type ScopePatterns } from './compiled-card';
import { replayKeptDecision, type KeptDecision, type ReplayCards } from './card-replay';
import { card, rule, SCOPE } from './decision-engine.fixture';

const kept = (over: Partial<KeptDecision> = {}): KeptDecision => ({
  id: 'dec_1',
  createdAt: new Date('2026-11-27T00:00:00Z'),
  kind: 'allow',
  intentId: 'crm-card',
  promptId: 'prm_1',
  actor: 'agent-1',
  audience: 'crm-api',
  credId: 'mnd_1',
  approvalRequestId: null,
  call: { action: { surface: 'sdk', operation: 'crm.contacts.read', target_resource: 'crm://contacts/42' }, context: { actor: 'agent-1' } },
  ...over,
});

/** The draft `draft` over an installed card with scope `installed` (shadow as given). */
function cards(draft: DecisionCard, installed: ScopePatterns = SCOPE, installedShadow = false): ReplayCards {
  return {
    decide: new Map([[draft.id, compileCard(draft)]]),
    mandateScope: new Map([[draft.id, installed]]),
    installedShadow: new Map([[draft.id, installedShadow]]),
  };
}
const replay = (k: KeptDecision, c: ReplayCards) => replayKeptDecision(k, c, DEFAULT_ACR_LEVELS);

describe('replayKeptDecision (the engine on a kept call)', () => {
  it('decides with the draft: a scope without the operation refuses, a rule applies', () => {
    expect(replay(kept(), cards(card()))).toBe('allow');
    // The installed scope's literals make the engine offer an in-scope variant, as on the live path.
    expect(replay(kept(), cards(card([], { allowed_scope: { ...SCOPE, operations: ['crm.contacts.update'] } })))).toBe('negotiate');
    expect(replay(kept(), cards(card([], { allowed_scope: { ...SCOPE, operations: ['billing.*'] } })))).toBe('deny');
    expect(replay(kept(), cards(card([rule('review', { kind: 'defer' })])))).toBe('defer');
  });

  it('never widens past the installed scope: the mandate is bounded by the installed card', () => {
    const wide = card([], { allowed_scope: { operations: ['crm.**'], resources: ['crm://**'], forbidden_operations: [] } });
    const call = kept({ call: { action: { surface: 'sdk', operation: 'crm.contacts.delete', target_resource: 'crm://contacts/1' } } });
    expect(replay(call, cards(wide))).toBe('deny');
  });

  it('re-checks the context against the recorded subject (confused deputy)', () => {
    expect(replay(kept({ call: { action: kept().call.action, context: { actor: 'someone-else' } } }), cards(card()))).toBe('deny');
  });

  it('a spent approval stays spent; a shadow mandate stays in shadow; a card no longer installed denies', () => {
    const ask = card([rule('ask', { kind: 'approval' })]);
    expect(replay(kept({ approvalRequestId: 'apr_1' }), cards(ask))).toBe('allow');
    expect(replay(kept(), cards(ask))).toBe('approval');
    const narrower = card([], { allowed_scope: { ...SCOPE, operations: ['crm.contacts.update'] } });
    expect(replay(kept({ kind: 'allow_with_shadow' }), cards(narrower))).toBe('allow_with_shadow');
    expect(replay(kept({ kind: 'allow_with_shadow' }), cards(narrower, SCOPE, true))).toBe('negotiate');
    expect(replay(kept({ intentId: 'gone' }), cards(card()))).toBe('deny');
  });
});
