import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EvaluateIntentRequestDto, EvaluateIntentResponseDto, EVALUATION_OUTCOMES, IntentHistoryDto } from '@igw/contracts';
import { ApiErrors, ApiJsonBody, ApiOp, CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { EvaluateIntentUseCase } from '../../application/use-cases/evaluate-intent.use-case';
import { ListIntentHistoryUseCase } from '../../application/use-cases/list-intent-history.use-case';
import { HISTORY_INCLUDES } from '../../domain/history/history-query';
import { EVALUATE_REQUEST_EXAMPLES, EVALUATE_RESPONSE_EXAMPLES, INTENT_HISTORY_EXAMPLE } from './intent-evaluation.examples';

/** The legacy enforcement path: evaluate a tool call, and read back what was evaluated. */
@ApiTags('intent')
@Controller('v1/intent')
export class IntentEvaluationHttpController {
  constructor(
    private readonly evaluate: EvaluateIntentUseCase,
    private readonly history: ListIntentHistoryUseCase,
  ) {}

  @Post('evaluate')
  @HttpCode(200)
  @ApiOp({
    id: 'evaluateToolCall',
    summary: "Evaluate one tool call against the org's active intentions.",
    description: [
      "The call is classified against the published intentions (or the ambient cluster when none covers it), its named fields (`arguments.columns|fields|select`) are checked against the intention's data elements, and the outcome is decided:",
      '',
      "- `allowed`: with a `grant` (valid for the intention's `ttl_minutes`, bound to this tool name and these canonical arguments; check it with `POST /v1/grants/verify`).",
      '- `denied`: no intention covers the call (`reason: ambient`), or it names fields outside the intention (`reason: data_element_refused`, `refused_fields`).',
      '- `pending_approval`: the intention requires approval; an approval request is created (`approval_request_id`). Once a person approves it, send the same call again (same user, session, tool and arguments) to get `approved`.',
      '- `approved`: an approved approval for this very call was used (once), with a `grant`.',
      '- `shadow_denied`: with `shadow_mode: true`, what would have been `denied` or `pending_approval`; no approval request and no grant, `reason` says why.',
      '',
      'Every evaluation is recorded (in `GET /v1/intent/history` and as an `intent.evaluated` event) before the answer is sent. Any API key may evaluate. Fails closed: when the current policy cannot be confirmed, the approvals service is unreachable for an intention that requires approval, or the evaluation cannot be recorded, the answer is an error, never an allow.',
    ].join('\n'),
  })
  @ApiJsonBody(EvaluateIntentRequestDto, EVALUATE_REQUEST_EXAMPLES)
  @ApiResponse({ status: 200, type: EvaluateIntentResponseDto, description: 'The recorded evaluation and its outcome.', examples: EVALUATE_RESPONSE_EXAMPLES })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: 'tool_call is required' },
      { code: 'invalid_request', message: 'tool_call.arguments must not nest deeper than 64 levels' },
    ],
    500: {
      code: 'record_refused',
      message: 'the intent event could not be stored and was set aside for an operator; nothing was granted',
    },
    503: [
      { code: 'unavailable', message: 'policy-registry is unavailable; retry later' },
      { code: 'unavailable', message: 'approvals is unavailable; retry later' },
    ],
  })
  evaluateCall(@CurrentCaller() caller: Caller, @Body() body: EvaluateIntentRequestDto): Promise<EvaluateIntentResponseDto> {
    return this.evaluate.execute(caller, body);
  }

  @Get('history')
  @ApiOp({
    id: 'listIntentHistory',
    summary: "List the org's evaluations, newest first.",
    description:
      "Every evaluation `POST /v1/intent/evaluate` recorded, shadow ones included. Keyset-paged: pass `next_cursor` as `cursor` until it is null; new evaluations never shift the pages being walked. `outcome` keeps one outcome; `since` keeps evaluations at or after a time. `include=call` adds each evaluation's `call` (tool call and conversation context as sent) while it is kept (`CALL_RETENTION_DAYS`, default 7): to review it, or to teach from it (`POST /v1/intentions/{id}/examples`). Each parameter may be given once.",
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'outcome', required: false, enum: EVALUATION_OUTCOMES })
  @ApiQuery({ name: 'since', required: false, type: String, description: 'ISO 8601 timestamp with a zone, or a date.' })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' })
  @ApiQuery({ name: 'include', required: false, enum: HISTORY_INCLUDES, description: '`call`: each evaluation with the call it decided.' })
  @ApiResponse({ status: 200, type: IntentHistoryDto, description: 'One page; `next_cursor` is null on the last.', example: INTENT_HISTORY_EXAMPLE })
  @ApiErrors({
    400: [
      { code: 'invalid_request', message: 'limit must be an integer from 1 to 200' },
      { code: 'invalid_request', message: `outcome must be one of ${EVALUATION_OUTCOMES.join(', ')}` },
      { code: 'invalid_request', message: 'since must be an ISO 8601 timestamp with a time zone (e.g. 2026-01-31T12:00:00Z) or a date' },
      { code: 'invalid_request', message: 'cursor is malformed' },
      { code: 'invalid_request', message: 'include must be one of call' },
    ],
  })
  listHistory(
    @CurrentCaller() caller: Caller,
    @Query('limit') limit?: string | string[],
    @Query('outcome') outcome?: string | string[],
    @Query('since') since?: string | string[],
    @Query('cursor') cursor?: string | string[],
    @Query('include') include?: string | string[],
  ): Promise<IntentHistoryDto> {
    return this.history.execute(caller, { limit, outcome, since, cursor, include });
  }
}
