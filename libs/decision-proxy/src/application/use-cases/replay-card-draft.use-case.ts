import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  POLICY_REGISTRY_API,
  REPLAY_LIMIT,
  REPLAY_PAGE_SIZE,
  type CardReplayApi,
  type InstallIntentCardDto,
  type IntentCardDto,
  type IntentCardsSnapshotDto,
  type PolicyRegistryApi,
  type ReplayRequestDto,
  type ReplayResultDto,
} from '@igw/contracts';
import {
  CLOCK,
  DEFAULT_CALL_RETENTION,
  invalidRequest,
  assertReplayCursorCurrent,
  openReplay,
  runReplay,
  retentionCutoff,
  systemClock,
  type CallRetention,
  type Clock,
} from '@igw/kernel';
import { compileCard, replayKeptDecision, type CompiledCard, type KeptDecision, type ReplayCards, type ScopePatterns } from '../../domain';
import { DECISION_ENGINE_OPTIONS, type DecisionEngineSettings } from '../decision-gate/tool-call-decision-gate';
import { DECISION_CALLS, type DecisionCalls } from '../ports/decision-calls.port';
import { DECISION_CALL_RETENTION } from '../retention/call-retention.options';

/** How long one card replay may run before it answers 503 with its progress (REPLAY_DEADLINE_MS). */
export const CARD_REPLAY_DEADLINE_MS = Symbol('CARD_REPLAY_DEADLINE_MS');
export const DEFAULT_CARD_REPLAY_DEADLINE_MS = 10_000;

/** The cards to decide with (the preview) and what bounds each card's mandates (the installed card, else the draft). */
function replayCardsOf(preview: IntentCardsSnapshotDto, draftId: string, installed: { allowed_scope: ScopePatterns; shadow: boolean } | null): ReplayCards {
  const decide = new Map<string, CompiledCard>();
  const mandateScope = new Map<string, ScopePatterns>();
  const installedShadow = new Map<string, boolean>();
  for (const card of preview.cards) {
    decide.set(card.id, compileCard(card));
    const before = card.id === draftId ? (installed ?? card) : card;
    mandateScope.set(card.id, before.allowed_scope);
    installedShadow.set(card.id, before.shadow);
  }
  return { decide, mandateScope, installedShadow };
}

/** The same cards without the draft: the installed card in its place (or none, for a new card). */
function withoutDraft(cards: ReplayCards, draftId: string, installed: IntentCardDto | null): ReplayCards {
  const decide = new Map(cards.decide);
  if (installed) decide.set(draftId, compileCard(installed));
  else decide.delete(draftId);
  return { ...cards, decide };
}

/**
 * `POST /v1/replays` with `kind: "card"` (DESIGN 6.16, decision 0021): re-decides the org's kept
 * mandate-path calls of a window against its installed cards with a draft card installed over
 * them, with the engine of `POST /v1/mcp-proxy/call` (replayKeptDecision → decide), and records
 * nothing: no decision, event, approval, review or webhook. The registry validates and applies the
 * draft (as the install does, stored nowhere); the live card read model is never touched.
 *
 * Same paging and limits as the intentions replay: every page re-runs the whole window, the cursor
 * fixes the window and the position and is refused (409) with another draft or limit or after
 * the cards changed; past the deadline, 503 `replay_deadline` with `replayed`.
 */
@Injectable()
export class ReplayCardDraftUseCase implements CardReplayApi {
  constructor(
    @Inject(POLICY_REGISTRY_API) private readonly registry: Pick<PolicyRegistryApi, 'previewIntentCard' | 'intentCard'>,
    @Inject(DECISION_CALLS) private readonly calls: DecisionCalls,
    @Inject(DECISION_ENGINE_OPTIONS) private readonly engine: DecisionEngineSettings,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
    @Optional() @Inject(DECISION_CALL_RETENTION) private readonly retention: CallRetention = DEFAULT_CALL_RETENTION,
    @Optional() @Inject(CARD_REPLAY_DEADLINE_MS) private readonly deadlineMs: number = DEFAULT_CARD_REPLAY_DEADLINE_MS,
  ) {}

  async replayCard(caller: { orgId: string }, request: ReplayRequestDto): Promise<ReplayResultDto> {
    const draft: InstallIntentCardDto | undefined = request.card;
    if (request.kind !== 'card' || draft === undefined) throw invalidRequest('card is required', [{ path: 'card', message: 'card is required' }]);
    const started = this.clock.now();
    const limit = request.limit ?? REPLAY_LIMIT.default;
    const replay = openReplay(
      { since: request.since, until: request.until, cursor: request.cursor, limit, draft },
      started,
      retentionCutoff(started, this.retention),
    );
    const { window, digest } = replay;

    const preview = await this.registry.previewIntentCard(caller.orgId, draft);
    assertReplayCursorCurrent(replay, preview.version, 'cards');
    const draftId = preview.cards[0]?.id ?? '';
    const installed = draft.id !== undefined ? await this.registry.intentCard(caller.orgId, draft.id) : null;
    const cards = replayCardsOf(preview, draftId, installed);
    const baseline = withoutDraft(cards, draftId, installed);
    return runReplay({
      window,
      pageSize: REPLAY_PAGE_SIZE,
      deadline: started.getTime() + this.deadlineMs,
      now: () => this.clock.now(),
      page: (after, limit) => this.calls.page(caller.orgId, { since: window.since, until: window.until, after, limit }),
      redecide: (kept: KeptDecision) => {
        const after = replayKeptDecision(kept, cards, this.engine.acrLevels);
        if (after === kept.kind) return null;
        // Listed only when the draft is what changes it: the replay cannot rebuild a mandate's own
        // narrowing or acr (so an unchanged draft must never report those as changes, exit 9).
        if (after === replayKeptDecision(kept, baseline, this.engine.acrLevels)) return null;
        return {
          from: kept.kind,
          to: after,
          listed: { id: kept.id, tool_name: kept.call.action.operation, before: { kind: kept.kind }, after: { kind: after } },
        };
      },
      cursor: { digest, version: preview.version },
    });
  }
}
