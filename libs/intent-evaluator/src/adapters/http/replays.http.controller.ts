import { Body, Controller, HttpCode, Inject, Optional, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { CARD_REPLAY_API, REPLAY_LIMIT, REPLAY_PAGE_SIZE, ReplayRequestDto, ReplayResultDto, type CardReplayApi } from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiOp, CurrentCaller, RequireScope } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { ReplayIntentionChangesUseCase } from '../../application/use-cases/replay-intention-changes.use-case';
import { REPLAY_REQUEST_EXAMPLES, REPLAY_RESULT_EXAMPLE } from './replays.examples';

/** What-if replay (DESIGN 6.16): see what a draft would change on the org's recent calls before publishing it. */
@ApiTags('replays')
@Controller('v1/replays')
export class ReplaysHttpController {
  constructor(
    private readonly replay: ReplayIntentionChangesUseCase,
    /** The decision proxy's card replay (in-process or over `/internal/replays/card`); absent: `card` is 400 `unsupported_kind`. */
    @Optional() @Inject(CARD_REPLAY_API) private readonly cardReplay?: CardReplayApi,
  ) {}

  @Post()
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOp({
    id: 'replayDraft',
    summary: "Re-decide the org's recent calls against the active intentions or cards plus a draft.",
    description: [
      'Takes the calls evaluations kept (`CALL_RETENTION_DAYS`) between `since` and `until`, oldest first, at most `limit` (≤ 10,000), and decides each again with the same classification and outcome rules as `POST /v1/intent/evaluate`, against the active intentions with `changes` applied in order. Nothing is recorded: no history, event, approval, grant or webhook.',
      '',
      '- `create`: the body of `POST /v1/intentions`; it counts as active. `update`: the body of `PATCH /v1/intentions/{id}` (an updated draft counts as published). `archive`: the intention is gone. Each is validated as the real write: the same 400s, the field named under `changes[i]`.',
      '- `before` is what was recorded, `after` the re-decision; a call that used an approval keeps it; a shadow call replays in shadow mode.',
      `- \`calls\` lists changed calls (outcome or label), ${REPLAY_PAGE_SIZE} per answer; send \`next_cursor\` as \`cursor\` with the same body for the next. Every answer re-runs the whole window, so \`replayed\` and \`transitions\` are the same on each page.`,
      '',
      '`kind: "card"` (mandate path): `card` is a whole card as in `POST /v1/intent-cards` (validated as the install, the field named under `card.`); the kept calls of `POST /v1/mcp-proxy/call` and the MCP proxy are decided again by the same decision engine against the installed cards with the draft installed (same `id`: it replaces that card). The mandate was verified when the call was decided; its scope is taken as the installed card\'s. `before` / `after` carry `kind`, `transitions` count decision kinds. No decision, approval, review, event or webhook.',
      '',
      'Needs `policy_write`. A replay that passes its deadline (`REPLAY_DEADLINE_MS`) answers 503 `replay_deadline` with `replayed` so far, never a partial result.',
    ].join('\n'),
  })
  @ApiJsonBody(ReplayRequestDto, REPLAY_REQUEST_EXAMPLES)
  @ApiResponse({
    status: 200,
    type: ReplayResultDto,
    description: 'The whole window re-decided; one page of the changed calls.',
    example: REPLAY_RESULT_EXAMPLE,
  })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: `limit must not be greater than ${REPLAY_LIMIT.max}` },
      { code: 'invalid_request', message: 'kind must be one of intentions, card' },
      { code: 'invalid_request', message: 'changes[0].intention.label must match ^[a-z0-9][a-z0-9_.-]{0,62}$' },
      { code: 'invalid_request', message: 'card.allowed_scope.operations must contain at least 1 elements' },
    ],
    404: { code: 'not_found', message: 'changes[0].id: intention not found' },
    409: [
      { code: 'cursor_stale', message: 'the cursor belongs to another draft or limit, or the intentions changed since; replay again without it' },
      { code: 'label_conflict', message: 'an intention with label "billing.refund" already exists' },
    ],
    503: { code: 'replay_deadline', message: 'the replay passed its deadline after 6200 calls; narrow the window or lower limit' },
  })
  replayDraft(@CurrentCaller() caller: Caller, @Body() body: ReplayRequestDto): Promise<ReplayResultDto> {
    if (body.kind === 'card' && this.cardReplay) return this.cardReplay.replayCard(caller, body);
    return this.replay.execute(caller, body);
  }
}
