import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto, EvaluateIntentRequestDto, EvaluateIntentResponseDto, EVALUATION_OUTCOMES, IntentHistoryDto } from '@igw/contracts';
import { CurrentCaller } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { EvaluateIntentUseCase } from '../../application/use-cases/evaluate-intent.use-case';
import { ListIntentHistoryUseCase } from '../../application/use-cases/list-intent-history.use-case';

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
  @ApiOperation({ summary: "Evaluate one tool call against the org's active intentions; recorded before the answer." })
  @ApiResponse({ status: 200, type: EvaluateIntentResponseDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (names the field)' })
  @ApiResponse({ status: 503, type: ErrorDto, description: 'unavailable: the decision cannot be made now (never an allow)' })
  evaluateCall(@CurrentCaller() caller: Caller, @Body() body: EvaluateIntentRequestDto): Promise<EvaluateIntentResponseDto> {
    return this.evaluate.execute(caller, body);
  }

  @Get('history')
  @ApiOperation({ summary: "The org's evaluations, newest first." })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'outcome', required: false, enum: EVALUATION_OUTCOMES })
  @ApiQuery({ name: 'since', required: false, type: String, description: 'ISO 8601 timestamp with a zone, or a date.' })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' })
  @ApiResponse({ status: 200, type: IntentHistoryDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (names the parameter)' })
  listHistory(
    @CurrentCaller() caller: Caller,
    @Query('limit') limit?: string | string[],
    @Query('outcome') outcome?: string | string[],
    @Query('since') since?: string | string[],
    @Query('cursor') cursor?: string | string[],
  ): Promise<IntentHistoryDto> {
    return this.history.execute(caller, { limit, outcome, since, cursor });
  }
}
