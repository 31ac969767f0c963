import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
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
import { ApiErrors, ApiJsonBody, ApiOp, ApiStatusPage, CurrentCaller, PageQuery, RequireScope, type StatusPageQuery, ApiNotFound } from '@igw/http';
import type { Caller } from '@igw/kernel';
import { ToolCallDecisionGate } from '../../application/decision-gate/tool-call-decision-gate';
import { GetDecisionUseCase } from '../../application/use-cases/get-decision.use-case';
import { ListDecisionsUseCase } from '../../application/use-cases/list-decisions.use-case';
import { ListReviewsUseCase } from '../../application/use-cases/list-reviews.use-case';
import { ResolveReviewUseCase } from '../../application/use-cases/resolve-review.use-case';
import { DECISION_LIST_INCLUDES } from '../../domain';
import {
  DECISION_LIST_EXAMPLE,
  DECISION_LIST_INVALID_EXAMPLES,
  DECISION_RECORD_EXAMPLE,
  PROXY_ALLOW_EXAMPLES,
  PROXY_BLOCKED_EXAMPLES,
  PROXY_CALL_EXAMPLES,
  PROXY_DEFERRED_EXAMPLES,
  PROXY_DENIED_EXAMPLES,
  PROXY_INVALID_EXAMPLES,
  PROXY_UNAUTHENTICATED_EXAMPLES,
  PROXY_UNAVAILABLE_EXAMPLES,
  RESOLVE_REVIEW_EXAMPLES,
  RESOLVED_REVIEW_EXAMPLE,
  REVIEW_LIST_EXAMPLE,
} from './mcp-proxy.examples';
import { mcpProxyCallStatus, toMcpProxyCallResponse, toToolCallCommand } from './mcp-proxy-call.wire';

/** The mandate path's decision point (DESIGN 6.9), its review queue and its decision records. */
@ApiTags('mcp-proxy')
@ApiExtraModels(McpProxyCallResponseDto, ErrorDto)
@Controller('v1/mcp-proxy')
export class McpProxyHttpController {
  constructor(
    private readonly gate: ToolCallDecisionGate,
    private readonly reviews: ListReviewsUseCase,
    private readonly resolveReview: ResolveReviewUseCase,
    private readonly decisions: GetDecisionUseCase,
    private readonly listDecisionsUseCase: ListDecisionsUseCase,
  ) {}

  @Post('call')
  @ApiOp({
    id: 'proxyToolCall',
    summary: 'Decide a tool call made with a mandate; the status follows the decision kind.',
    description: [
      "Checks the mandate in `X-Service-Mandate` (signature, expiry, revocation, `aud` equal to `audience`, the org of the API key), finds its intent card, then decides: confused deputy (the `context.actor` / `on_behalf_of` and `prompt_id` must be the mandate's), scope (the mandate's scope within the card's current one), the card's rules in order (first match wins), shadow mode, else `allow`.",
      '',
      'This route decides and records; it forwards nothing. The caller acts on the answer: 200 `allow*` runs the action (as `redact_fields` / `downgraded_action` say), 202 `defer` runs it and queues it in the review queue, `negotiate` / `substitute` name another action, 428 `approval` opens an approval request (once it is approved, the identical call answers `allow` and spends it) and `step_up` needs a mandate with a stronger `acr`, 403 `deny*` refuses. To have allowed calls forwarded, call tools through `{base}/mcp/{name}` (an MCP server registered in /v1/mcp-servers).',
      '',
      'Every decision is durable before the answer (GET /v1/mcp-proxy/decisions/{decision_id}); the arguments are kept only as their sha256. A rule that cannot be evaluated denies (`rule_error`), and anything that cannot be made sure of (issuer keys, version board, store) is a 503, never an allow. Any key of the org may call it, read_only included.',
    ].join('\n'),
  })
  @ApiHeader({
    name: 'X-Service-Mandate',
    required: true,
    description: 'The mandate JWT (RS256, `typ: mandate+jwt`): the `credential` POST /v1/mandate/dispense returned. Missing or invalid: 401 `mandate_invalid`.',
    schema: { type: 'string', example: 'eyJhbGciOiJSUzI1NiIsInR5cCI6Im1hbmRhdGUrand0Iiwia2lkIjoibWtfMSJ9.eyJzdWIiOiJhZ2VudDpzdXBwb3J0LWJvdCJ9.c2lnbmF0dXJl' },
  })
  @ApiJsonBody(McpProxyCallDto, PROXY_CALL_EXAMPLES)
  @ApiResponse({
    status: 200,
    type: McpProxyCallResponseDto,
    description: 'allow, allow_with_log_extra, allow_with_redact, allow_with_downgrade, allow_with_shadow: the action may run (as the decision says).',
    examples: PROXY_ALLOW_EXAMPLES,
  })
  @ApiResponse({
    status: 202,
    type: McpProxyCallResponseDto,
    description: 'defer (run it; it is queued for review), negotiate (retry with `suggested_action`), substitute (run `replacement_action` instead).',
    examples: PROXY_DEFERRED_EXAMPLES,
  })
  @ApiResponse({
    status: 403,
    description:
      'deny, deny_with_reroute: the decision refuses the action (a McpProxyCallResponseDto); or `mandate_org_mismatch`, an error: the mandate is valid but of another org (no decision is made).',
    schema: { oneOf: [{ $ref: getSchemaPath(McpProxyCallResponseDto) }, { $ref: getSchemaPath(ErrorDto) }] },
    examples: PROXY_DENIED_EXAMPLES,
  })
  @ApiResponse({
    status: 428,
    type: McpProxyCallResponseDto,
    description: 'approval (repeat the identical call once the approval request is approved), step_up (a mandate with `required_acr` or stronger is needed).',
    examples: PROXY_BLOCKED_EXAMPLES,
  })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description: '`invalid_request`: a field is missing, of the wrong type or too deep; `details` names each offending field.',
    examples: PROXY_INVALID_EXAMPLES,
  })
  @ApiResponse({
    status: 401,
    type: ErrorDto,
    description: '`mandate_invalid`: the mandate is missing, malformed, expired, revoked, not for this audience, or its signature does not verify.',
    examples: PROXY_UNAUTHENTICATED_EXAMPLES,
  })
  @ApiErrors({ 404: { code: 'intent_not_found', message: 'intent card crm-support is not installed in this organisation' } })
  @ApiResponse({
    status: 503,
    type: ErrorDto,
    description: '`unavailable`: the issuer keys or the version board cannot be reached, so no decision is made (never an allow); retry later.',
    examples: PROXY_UNAVAILABLE_EXAMPLES,
  })
  async call(
    @CurrentCaller() caller: Caller,
    @Headers('x-service-mandate') mandate: string | undefined,
    @Body() body: McpProxyCallDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<McpProxyCallResponseDto> {
    const decided = await this.gate.verifyAndDecide(caller, mandate, toToolCallCommand(body));
    reply.status(mcpProxyCallStatus(decided));
    return toMcpProxyCallResponse(decided);
  }

  @Get('reviews')
  @ApiOp({
    id: 'listReviews',
    summary: 'The review queue: calls decided `defer`, newest first.',
    description:
      'A deferred call has already been answered 202 and may have run; the queue is for a person to look at it afterwards and resolve it. Filter by `status` (pending, accepted, rejected). Keyset-paged: pass `next_cursor` as `cursor` until it is null.',
  })
  @ApiStatusPage(REVIEW_STATUSES, ReviewListDto, REVIEW_LIST_EXAMPLE)
  listReviews(@CurrentCaller() caller: Caller, @PageQuery() query: StatusPageQuery): Promise<ReviewListDto> {
    return this.reviews.execute(caller, query);
  }

  @Post('reviews/:review_id/resolve')
  @HttpCode(200)
  @RequireScope('policy_write')
  @ApiOp({
    id: 'resolveReview',
    summary: 'Accept or reject a deferred call (once).',
    description:
      'Records the verdict, the key that gave it and the note on the review; it changes nothing about the call, which was answered `defer` and may already have run. A review is resolved once: a second resolve is a 409. Needs policy_write.',
  })
  @ApiJsonBody(ResolveReviewDto, RESOLVE_REVIEW_EXAMPLES)
  @ApiResponse({ status: 200, type: ReviewDto, description: 'The review, resolved.', example: RESOLVED_REVIEW_EXAMPLE })
  @ApiErrors({
    400: { code: 'invalid_request', message: 'status must be "accepted" or "rejected"' },
    404: { code: 'not_found', message: 'review not found' },
    409: { code: 'invalid_transition', message: 'review rev_0193a6f6a2b38c4d9e0f1a2b3c4d5e6f is already accepted' },
  })
  resolve(@CurrentCaller() caller: Caller, @Param('review_id') reviewId: string, @Body() body: ResolveReviewDto): Promise<ReviewDto> {
    return this.resolveReview.execute(caller, reviewId, body);
  }

  @Get('decisions')
  @ApiOp({
    id: 'listDecisions',
    summary: "The org's decisions, newest first.",
    description:
      'Every decision of POST /v1/mcp-proxy/call and of MCP tool calls through `{base}/mcp/{name}`, filtered by mandate (`cred_id`), decision `kind` and a time range (`since` ≤ created_at < `until`). `include=call` adds to each decision its `call` (the action and context as decided) while it is kept (`CALL_RETENTION_DAYS`, default 7). Keyset-paged: pass `next_cursor` as `cursor` until it is null. Every bad parameter is named at once in `details`.',
  })
  @ApiQuery({ name: 'cred_id', required: false, type: String, description: 'Only the decisions on this mandate (its `cred_…` id, the `jti`).' })
  @ApiQuery({ name: 'kind', required: false, enum: DECISION_KINDS })
  @ApiQuery({ name: 'since', required: false, type: String, description: 'ISO 8601 timestamp with a zone, or a date: created at or after.' })
  @ApiQuery({ name: 'until', required: false, type: String, description: 'ISO 8601 timestamp with a zone, or a date: created before; later than `since`.' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: '`next_cursor` of the previous page.' })
  @ApiQuery({ name: 'include', required: false, enum: DECISION_LIST_INCLUDES, description: '`call`: each decision with the call it decided.' })
  @ApiResponse({ status: 200, type: DecisionRecordListDto, description: 'One page; `next_cursor` is null on the last.', example: DECISION_LIST_EXAMPLE })
  @ApiResponse({
    status: 400,
    type: ErrorDto,
    description: '`invalid_request`: a parameter is malformed or given twice; `details` names each offending parameter.',
    examples: DECISION_LIST_INVALID_EXAMPLES,
  })
  listDecisions(
    @CurrentCaller() caller: Caller,
    @Query('cred_id') cred_id?: string | string[],
    @Query('kind') kind?: string | string[],
    @Query('since') since?: string | string[],
    @Query('until') until?: string | string[],
    @Query('limit') limit?: string | string[],
    @Query('cursor') cursor?: string | string[],
    @Query('include') include?: string | string[],
  ): Promise<DecisionRecordListDto> {
    return this.listDecisionsUseCase.execute(caller, { cred_id, kind, since, until, limit, cursor, include });
  }

  @Get('decisions/:decision_id')
  @ApiOp({
    id: 'getDecision',
    summary: 'A recorded decision of the org.',
    description:
      "The decision as it was answered, and the call it was about (the arguments only as their sha256). A decision is durable when answered and readable here within a second. Another org's id is a 404, as an unknown one is.",
  })
  @ApiResponse({ status: 200, type: DecisionRecordDto, description: 'The decision record.', example: DECISION_RECORD_EXAMPLE })
  @ApiNotFound('decision')
  decision(@CurrentCaller() caller: Caller, @Param('decision_id') decisionId: string): Promise<DecisionRecordDto> {
    return this.decisions.execute(caller, decisionId);
  }
}
