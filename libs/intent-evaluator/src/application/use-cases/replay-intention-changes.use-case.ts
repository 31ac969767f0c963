import { Inject, Injectable, Optional } from '@nestjs/common';
import { POLICY_REGISTRY_API, REPLAY_LIMIT, REPLAY_PAGE_SIZE, type PolicyRegistryApi, type ReplayRequestDto, type ReplayResultDto } from '@igw/contracts';
import { AppError, assertReplayCursorCurrent, CLOCK, openReplay, runReplay, systemClock, type Caller, type Clock } from '@igw/kernel';
import { decideOutcome } from '../../domain/evaluation/outcome';
import { DEFAULT_CALL_RETENTION, retentionCutoff, type CallRetention } from '../../domain/evaluation/retained-call';
import { changed, type ReplayedDecision } from '../../domain/replay/replayed-decision';
import { ClassificationCascade } from '../classification/classification-cascade';
import { classifyCall, decidedIntent } from '../evaluation/classify-call';
import { RECORDED_CALLS, type RecordedCall, type RecordedCalls } from '../ports/intent-event.repository.port';
import { orgIntentionsOf, type OrgIntentions } from '../read-model/active-intentions.read-model';
import { CALL_RETENTION } from '../retention/call-retention.options';

/** How long one replay may run (REPLAY_DEADLINE_MS) before it answers 503 with its progress. */
export const REPLAY_DEADLINE_MS = Symbol('REPLAY_DEADLINE_MS');
export const DEFAULT_REPLAY_DEADLINE_MS = 10_000;

const decisionDto = (d: ReplayedDecision) => ({ outcome: d.outcome, intent_label: d.intentLabel });

/**
 * `POST /v1/replays` with `kind: "intentions"` (DESIGN 6.16): re-decides the org's kept calls of a
 * window against its active intentions plus a draft, with the real cascade and outcome rules, and
 * records nothing: no event, no approval, no grant, no history row. The draft is applied by the
 * registry (its validation, stored nowhere); the live read model is never touched.
 *
 * Calls are streamed in keyset pages; only counts and the page of changed calls are held. An
 * approval a call used stays used (a recorded `approved` call replays with its approval), a
 * shadow call replays in shadow mode. Every page of changed calls re-runs the whole window, so its
 * counts are complete; past the deadline the answer is 503 `replay_deadline` with `replayed`.
 */
@Injectable()
export class ReplayIntentionChangesUseCase {
  constructor(
    private readonly cascade: ClassificationCascade,
    @Inject(POLICY_REGISTRY_API) private readonly registry: Pick<PolicyRegistryApi, 'previewIntentionChanges'>,
    @Inject(RECORDED_CALLS) private readonly calls: RecordedCalls,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
    @Optional() @Inject(CALL_RETENTION) private readonly retention: CallRetention = DEFAULT_CALL_RETENTION,
    @Optional() @Inject(REPLAY_DEADLINE_MS) private readonly deadlineMs: number = DEFAULT_REPLAY_DEADLINE_MS,
  ) {}

  async execute(caller: Caller, request: ReplayRequestDto): Promise<ReplayResultDto> {
    if (request.kind !== 'intentions') {
      throw new AppError('invalid', 'unsupported_kind', `kind ${request.kind} is not served yet; replay intentions`, {
        details: [{ path: 'kind', message: 'kind card is not served yet' }],
      });
    }
    const started = this.clock.now();
    const changes = request.changes ?? [];
    const limit = request.limit ?? REPLAY_LIMIT.default;
    const replay = openReplay(
      { since: request.since, until: request.until, cursor: request.cursor, limit, draft: changes },
      started,
      retentionCutoff(started, this.retention),
    );
    const { window, digest } = replay;

    const snapshot = await this.registry.previewIntentionChanges(caller.orgId, changes);
    assertReplayCursorCurrent(replay, snapshot.version, 'intentions');
    const org = orgIntentionsOf(caller.orgId, snapshot);
    return runReplay({
      window,
      pageSize: REPLAY_PAGE_SIZE,
      deadline: started.getTime() + this.deadlineMs,
      now: () => this.clock.now(),
      page: (after, limit) => this.calls.page(caller.orgId, { since: window.since, until: window.until, after, limit }),
      redecide: async (recorded: RecordedCall) => {
        const before: ReplayedDecision = { outcome: recorded.outcome, intentLabel: recorded.intentLabel };
        const after = await this.redecide(org, recorded);
        if (!changed(before, after)) return null;
        return {
          from: before.outcome,
          to: after.outcome,
          listed: { id: recorded.id, tool_name: recorded.call.toolName, before: decisionDto(before), after: decisionDto(after) },
        };
      },
      cursor: { digest, version: snapshot.version },
    });
  }

  /** The real cascade and outcome rules on a kept call; nothing the live path does besides. */
  private async redecide(org: OrgIntentions, recorded: RecordedCall): Promise<ReplayedDecision> {
    const { classified, match, intention, dataElements } = await classifyCall(this.cascade, org, recorded.call);
    const decision = decideOutcome({
      intention,
      match,
      dataElements,
      shadowMode: recorded.shadowMode,
      approvedApprovalAvailable: recorded.outcome === 'approved',
    });
    return { outcome: decision.outcome, intentLabel: decidedIntent(intention, classified).label };
  }
}
