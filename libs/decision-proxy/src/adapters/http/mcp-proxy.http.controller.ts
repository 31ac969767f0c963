import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  DECISION_HTTP_STATUS,
  DECISION_KINDS,
  DecisionRecordDto,
  DecisionRecordListDto,
  ErrorDto,
  McpProxyCallDto,
  McpProxyCallResponseDto,
  ResolveReviewDto,
  REVIEW_STATUSES,
  ReviewDto,
  ReviewListDto,
} from '@igw/contracts';
import { ApiStatusPage, CurrentCaller, PageQuery, RequireScope, type StatusPageQuery } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { DecideToolCallUseCase } from '../../application/use-cases/decide-tool-call.use-case';
import { GetDecisionUseCase } from '../../application/use-cases/get-decision.use-case';
import { ListDecisionsUseCase } from '../../application/use-cases/list-decisions.use-case';
import { ListReviewsUseCase } from '../../application/use-cases/list-reviews.use-case';
import { ResolveReviewUseCase } from '../../application/use-cases/resolve-review.use-case';

/** The mandate path's decision point (DESIGN 6.9), its review queue and its decision records. */
@ApiTags('mcp-proxy')
@Controller('v1/mcp-proxy')
export class McpProxyHttpController {
  constructor(
    private readonly decide: DecideToolCallUseCase,
    private readonly reviews: ListReviewsUseCase,
    private readonly resolveReview: ResolveReviewUseCase,
    private readonly decisions: GetDecisionUseCase,
    private readonly listDecisionsUseCase: ListDecisionsUseCase,
  ) {}

  @Post('call')
  @ApiHeader({ name: 'X-Service-Mandate', required: true, description: 'The mandate JWT (RS256, typ mandate+jwt).' })
  @ApiOperation({ summary: 'Run the decision engine on a mandate and an action; the status follows the decision kind.' })
  @ApiResponse({
    status: 200,
    type: McpProxyCallResponseDto,
    description: 'allow, allow_with_log_extra, allow_with_redact, allow_with_downgrade, allow_with_shadow',
  })
  @ApiResponse({ status: 202, type: McpProxyCallResponseDto, description: 'defer, negotiate, substitute' })
  @ApiResponse({ status: 403, type: McpProxyCallResponseDto, description: 'deny, deny_with_reroute (and mandate_org_mismatch as an error)' })
  @ApiResponse({ status: 428, type: McpProxyCallResponseDto, description: 'approval, step_up' })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request (names the field)' })
  @ApiResponse({ status: 401, type: ErrorDto, description: 'mandate_invalid' })
  @ApiResponse({ status: 404, type: ErrorDto, description: 'intent_not_found' })
  @ApiResponse({ status: 503, type: ErrorDto, description: 'unavailable: the decision cannot be made now (never an allow)' })
  async call(
    @CurrentCaller() caller: Caller,
    @Headers('x-service-mandate') mandate: string | undefined,
    @Body() body: McpProxyCallDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<McpProxyCallResponseDto> {
    const decided = await this.decide.execute(caller, mandate, body);
    reply.status(DECISION_HTTP_STATUS[decided.body.decision.kind]);
    return decided.body;
  }

  @Get('reviews')
  @ApiOperation({ summary: 'The review queue: calls decided `defer`, newest first.' })
  @ApiStatusPage(REVIEW_STATUSES, ReviewListDto)
  listReviews(@CurrentCaller() caller: Caller, @PageQuery() query: StatusPageQuery): Promise<ReviewListDto> {
    return this.reviews.execute(caller, query);
  }

  @Post('reviews/:review_id/resolve')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOperation({ summary: 'Accept or reject a deferred call (once).' })
  @ApiResponse({ status: 200, type: ReviewDto })
  @ApiResponse({ status: 404, type: ErrorDto })
  @ApiResponse({ status: 409, type: ErrorDto, description: 'invalid_transition: already resolved' })
  resolve(@CurrentCaller() caller: Caller, @Param('review_id') reviewId: string, @Body() body: ResolveReviewDto): Promise<ReviewDto> {
    return this.resolveReview.execute(caller, reviewId, body);
  }

  @Get('decisions')
  @ApiOperation({
    summary: "The org's decisions, newest first.",
    description:
      'Every decision of POST /v1/mcp-proxy/call (and of MCP tool calls through /mcp/{name}), filtered by mandate (`cred_id`), decision `kind` and a time range (`since` ≤ created_at < `until`, ISO 8601), with cursor paging (`next_cursor`).',
  })
  @ApiQuery({ name: 'cred_id', required: false, type: String, description: 'Only the decisions on this mandate.' })
  @ApiQuery({ name: 'kind', required: false, enum: DECISION_KINDS })
  @ApiQuery({ name: 'since', required: false, type: String, description: 'ISO 8601 timestamp with a zone, or a date: created at or after.' })
  @ApiQuery({ name: 'until', required: false, type: String, description: 'ISO 8601 timestamp with a zone, or a date: created before.' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' })
  @ApiResponse({ status: 200, type: DecisionRecordListDto })
  @ApiResponse({ status: 400, type: ErrorDto, description: 'invalid_request; `details` names each offending parameter' })
  listDecisions(
    @CurrentCaller() caller: Caller,
    @Query('cred_id') cred_id?: string | string[],
    @Query('kind') kind?: string | string[],
    @Query('since') since?: string | string[],
    @Query('until') until?: string | string[],
    @Query('limit') limit?: string | string[],
    @Query('cursor') cursor?: string | string[],
  ): Promise<DecisionRecordListDto> {
    return this.listDecisionsUseCase.execute(caller, { cred_id, kind, since, until, limit, cursor });
  }

  @Get('decisions/:decision_id')
  @ApiOperation({ summary: 'A recorded decision of the org.' })
  @ApiResponse({ status: 200, type: DecisionRecordDto })
  @ApiResponse({ status: 404, type: ErrorDto })
  decision(@CurrentCaller() caller: Caller, @Param('decision_id') decisionId: string): Promise<DecisionRecordDto> {
    return this.decisions.execute(caller, decisionId);
  }
}
