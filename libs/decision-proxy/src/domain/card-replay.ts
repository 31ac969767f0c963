// What-if replay of a draft intent card (DESIGN 6.16, decision 0021): a kept mandate-path call
// decided again by the same engine as POST /v1/mcp-proxy/call. Pure, no I/O.
import type { DecisionKind } from '@igw/kernel';
import type { CompiledCard, ScopePatterns } from './compiled-card';
import type { DecisionCall } from './decision-call';
import { decide, type MandateClaims } from './decision-engine';

/** A kept call with what its decision record says of the mandate and of the answer. */
export interface KeptDecision {
  /** The decision id. */
  id: string;
  createdAt: Date;
  kind: DecisionKind;
  intentId: string;
  promptId: string | null;
  actor: string;
  audience: string;
  credId: string;
  /** Set when the decision asked for (or, on an `allow`, spent) an approval. */
  approvalRequestId: string | null;
  call: DecisionCall;
}

/** The cards a replay decides with: the installed ones with the draft in place, and what bounds a mandate's scope. */
export interface ReplayCards {
  /** Installed cards with the draft installed over them, by id. */
  decide: ReadonlyMap<string, CompiledCard>;
  /**
   * The scope a mandate of each card could carry: the card's installed allowed_scope (dispense
   * made every mandate a subset of it); for a draft that adds a card, the draft's.
   */
  mandateScope: ReadonlyMap<string, ScopePatterns>;
  /** Whether the installed card (before the draft) was in shadow, by id. */
  installedShadow: ReadonlyMap<string, boolean>;
}

/**
 * The kind the engine decides today for a kept call. The mandate was verified when the call was
 * decided; what of it the record keeps is rebuilt (subject, prompt, card, audience, id), and its
 * scope is taken as the widest it could have been, the installed card's: the intersection with
 * the draft is then the draft's scope, so a narrower draft narrows and a wider one never widens
 * past what was installed. Not kept, so not replayed: a mandate's own narrowing at dispense and
 * its `acr` (a step_up rule replays as step_up). A call recorded `allow_with_shadow` under a card
 * that was not in shadow had a mandate in shadow and replays so. A call that spent an approval
 * keeps it (`approval` → `allow`). A card that is no longer installed refuses the call: `deny`.
 */
export function replayKeptDecision(kept: KeptDecision, cards: ReplayCards, acrLevels: readonly string[]): DecisionKind {
  const card = cards.decide.get(kept.intentId);
  const scope = cards.mandateScope.get(kept.intentId);
  if (card === undefined || scope === undefined) return 'deny';
  const mandate: MandateClaims = {
    sub: kept.actor,
    org: '',
    intent_id: kept.intentId,
    prompt_id: kept.promptId,
    aud: kept.audience,
    scope,
    jti: kept.credId,
    exp: 0,
  };
  const mandateShadow = kept.kind === 'allow_with_shadow' && cards.installedShadow.get(kept.intentId) === false;
  const result = decide({ mandate, card, request: { ...kept.call, audience: kept.audience }, mandateShadow }, { acrLevels });
  const kind = result.decision.kind;
  if (kind === 'approval' && kept.kind === 'allow' && kept.approvalRequestId !== null) return 'allow';
  return kind;
}
